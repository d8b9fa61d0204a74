// Clinical documents: the note of each visit (written from what the visit recorded: vitals, results, assessment,
// current medications, plan), the imaging report text, and the DocumentReference that carries a document.
import type { DocumentReference } from '@medplum/fhirtypes';
import { HL7, LOINC } from '../codes/index.ts';
import type { Clinician } from '../staff.ts';
import { formatDate, formatInstant } from '../time.ts';
import { cc, ref } from './fhir-values.ts';
import type { ChartState } from './state.ts';
import type { Visit } from './types.ts';

const NOTE_TITLES: Record<Visit['noteType'], string> = {
  '11506-3': 'Progress note', '11488-4': 'Consult note', '18842-5': 'Discharge summary', '34117-2': 'History and physical note',
};

export function document(chart: ChartState, visit: Visit, loinc: string, text: string, at: number, author: Clinician, title: string): void {
  chart.resources.push({
    resourceType: 'DocumentReference', id: chart.newId('doc'), status: 'current', docStatus: 'final',
    type: cc(LOINC, loinc), category: [cc(HL7.documentCategory, 'clinical-note')],
    subject: ref('Patient', chart.patientId), date: formatInstant(at),
    author: [ref('Practitioner', author.practitionerId, author.name)],
    custodian: ref('Organization', chart.ctx.staff.healthSystemId),
    description: title,
    content: [{ attachment: { contentType: 'text/plain; charset=utf-8', language: 'en-US', data: Buffer.from(text, 'utf8').toString('base64'), title, creation: formatInstant(at) } }],
    context: { encounter: [ref('Encounter', visit.id)], period: { start: formatInstant(visit.start), end: formatInstant(visit.end) } },
  } satisfies DocumentReference);
}

/** The visit's note, written when the chart is finished so it lists every result and plan line of the visit. */
export function visitNote(chart: ChartState, v: Visit): void {
  const age = Math.floor(chart.ageAt(v.start));
  const title = NOTE_TITLES[v.noteType];
  const lines = [
    title.toUpperCase(),
    `Date: ${formatDate(v.start)}    Clinic: ${chart.ctx.staff.organizationName(v.clinician.organizationId)}`,
    `Clinician: ${v.clinician.name}`,
    `Patient: ${chart.name}, ${age} y/o ${chart.sex}, MRN ${chart.mrn}`,
    `Reason for visit: ${v.reasonText}`,
  ];
  if (v.vitalsText) lines.push(`Vitals: ${v.vitalsText}`);
  if (v.results.length) lines.push('Results:', ...v.results.map((r) => `  ${r}`));
  if (v.problems.length) lines.push('Assessment:', ...v.problems.map((p) => `  - ${p}`));
  const meds = chart.courses.filter((c) => c.start <= v.start && (c.end === undefined || c.end > v.start)).map((c) => c.drug.product);
  if (meds.length) lines.push(`Current medications: ${[...new Set(meds)].join('; ')}`);
  if (v.plan.length) lines.push('Plan:', ...v.plan.map((p) => `  - ${p}`));
  if (!v.plan.length && !v.problems.length) lines.push('Plan: continue current management; return as scheduled.');
  document(chart, v, v.noteType, lines.join('\n') + '\n', v.end, v.clinician, `${title} ${formatDate(v.start)}`);
}

export interface ImagingReport {
  title: string;
  at: number;
  orderedBy: Clinician;
  radiologist: Clinician;
  reason?: string;
  conclusion: string;
}

export function imagingReportText(chart: ChartState, r: ImagingReport): string {
  return `IMAGING REPORT\nStudy: ${r.title}\nDate: ${formatDate(r.at)}\nPatient: ${chart.name}, MRN ${chart.mrn}\n` +
    `Ordering clinician: ${r.orderedBy.name}\nReading radiologist: ${r.radiologist.name}\n` +
    (r.reason ? `Indication: ${r.reason}\n` : '') + `Impression: ${r.conclusion}\n`;
}
