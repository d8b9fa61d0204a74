// Problem-list and encounter-diagnosis Conditions, coded in ICD-10-CM and SNOMED CT, and the chart's record of each
// diagnosis that modules test with `has`.
import type { Condition } from '@medplum/fhirtypes';
import { HL7, ICD10CM, SNOMED, codingOf } from '../codes/index.ts';
import { cc, ref } from './fhir-values.ts';
import type { ChartState } from './state.ts';
import type { ConditionRecord, ConditionSpec, Visit } from './types.ts';

export function diagnose(chart: ChartState, key: string, spec: ConditionSpec, visit: Visit, options: { abated?: number } = {}): ConditionRecord {
  const record: ConditionRecord = { ...spec, key, id: chart.newId('cond'), onset: visit.start, abated: options.abated, visit };
  chart.conditions.set(key, record);
  visit.diagnoses.push(record.id);
  visit.problems.push(`${spec.text} (${spec.icd}): new diagnosis.`);
  const clinical = options.abated !== undefined && options.abated <= chart.ref ? 'resolved' : 'active';
  const condition: Condition = {
    resourceType: 'Condition', id: record.id,
    clinicalStatus: cc(HL7.conditionClinical, clinical),
    verificationStatus: cc(HL7.conditionVerification, 'confirmed'),
    category: [cc(HL7.conditionCategory, 'problem-list-item')],
    code: { coding: [codingOf(ICD10CM, spec.icd), codingOf(SNOMED, spec.snomed)], text: spec.text },
    subject: ref('Patient', chart.patientId),
    encounter: ref('Encounter', visit.id),
    onsetDateTime: chart.instant(visit.start),
    recordedDate: chart.instant(visit.start),
    recorder: ref('Practitioner', visit.clinician.practitionerId),
  };
  if (clinical === 'resolved') condition.abatementDateTime = chart.instant(options.abated!);
  chart.resources.push(condition);
  return record;
}

/** Mark an already written problem-list Condition resolved at t (e.g. a CKD stage superseded by the next). */
export function resolve(chart: ChartState, conditionId: string, t: number): void {
  const c = chart.resources.find((r) => r.resourceType === 'Condition' && r.id === conditionId) as Condition | undefined;
  if (!c) return;
  c.clinicalStatus = cc(HL7.conditionClinical, 'resolved');
  c.abatementDateTime = chart.instant(t);
}

/** An encounter diagnosis (follow-up visit addressing a known problem). */
export function addressed(chart: ChartState, key: string, visit: Visit, line?: string): void {
  const c = chart.conditions.get(key);
  if (!c) return;
  if (chart.rng.chance(0.35)) {
    const id = chart.newId('cond');
    chart.resources.push({
      resourceType: 'Condition', id,
      clinicalStatus: cc(HL7.conditionClinical, 'active'),
      verificationStatus: cc(HL7.conditionVerification, 'confirmed'),
      category: [cc(HL7.conditionCategory, 'encounter-diagnosis')],
      code: { coding: [codingOf(ICD10CM, c.icd), codingOf(SNOMED, c.snomed)], text: c.text },
      subject: ref('Patient', chart.patientId),
      encounter: ref('Encounter', visit.id),
      onsetDateTime: chart.instant(c.onset),
      recordedDate: chart.instant(visit.start),
    } satisfies Condition);
    visit.diagnoses.push(id);
  } else {
    visit.diagnoses.push(c.id);
  }
  if (line) visit.problems.push(`${c.text}: ${line}`);
}
