// Visits: scheduling one (clinician, clinic time, length, note type) and the Encounter resource written for it once
// the chart is finished (diagnoses addressed are only known by then).
import type { Encounter } from '@medplum/fhirtypes';
import { HL7, SNOMED, codingOf } from '../codes/index.ts';
import type { Clinician, Specialty } from '../staff.ts';
import { DAY, HOUR, MINUTE } from '../time.ts';
import { cc, ref } from './fhir-values.ts';
import type { ChartState } from './state.ts';
import type { Visit, VisitKind } from './types.ts';

export interface VisitOptions {
  kind?: VisitKind;
  specialty?: Specialty;
  clinician?: Clinician;
  type?: string;
  reason: string;
  days?: number;
}

export function scheduleVisit(chart: ChartState, t: number, options: VisitOptions): Visit {
  const kind = options.kind ?? 'AMB';
  const clinician = options.clinician ?? (options.specialty ? chart.clinician(options.specialty) : chart.primaryCare());
  const start = kind === 'AMB' || kind === 'VR' ? chart.clinicTime(t) : t;
  const end = kind === 'IMP' ? start + (options.days ?? 3) * DAY : start + (kind === 'EMER' ? 4 * HOUR : 30 * MINUTE);
  const typeCode = options.type ?? { AMB: '390906007', EMER: '50849002', IMP: '32485007', VR: '448337001' }[kind];
  const v: Visit = {
    id: chart.newId('enc'), kind, start, end, clinician, typeCode, reasonText: options.reason, diagnoses: [],
    problems: [], results: [], plan: [],
    noteType: kind === 'IMP' ? '18842-5' : clinician.specialty === 'primaryCare' || clinician.specialty === 'internalMedicine' ? '11506-3' : '11488-4',
  };
  chart.visits.push(v);
  return v;
}

export function encounterOf(chart: ChartState, v: Visit): Encounter {
  const encounter: Encounter = {
    resourceType: 'Encounter', id: v.id, status: v.start > chart.ref ? 'planned' : 'finished',
    class: codingOf(HL7.actCode, v.kind),
    type: [cc(SNOMED, v.typeCode)],
    subject: ref('Patient', chart.patientId, chart.name),
    participant: [{ type: [cc(HL7.participationType, 'ATND')], individual: ref('Practitioner', v.clinician.practitionerId, v.clinician.name) }],
    period: { start: chart.instant(v.start), end: chart.instant(v.end) },
    reasonCode: [{ text: v.reasonText }],
    location: [{ location: ref('Location', v.clinician.locationId) }],
    serviceProvider: ref('Organization', v.clinician.organizationId),
  };
  if (v.diagnoses.length) {
    encounter.diagnosis = v.diagnoses.map((id, i) => ({ condition: ref('Condition', id), rank: i + 1 }));
  }
  if (v.kind === 'IMP') encounter.hospitalization = { dischargeDisposition: { text: 'Discharged home' } };
  return encounter;
}
