// Starts the SGLT2 inhibitor correctly but stops the ACE inhibitor/ARB "to avoid a double eGFR dip": KDIGO 2024 adds
// the SGLT2 inhibitor to RAAS blockade.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'right SGLT2 decision, but stops the ACE inhibitor/ARB';
export const catches = ['raas_kept'];

const FS = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';
const latest = (list: Observation[]) => list.filter((o) => o.status !== 'entered-in-error' && o.valueQuantity?.value !== undefined)
  .sort((a, b) => Date.parse(b.effectiveDateTime ?? '') - Date.parse(a.effectiveDateTime ?? ''))[0]!;

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const problems = (await http.search<Condition>('Condition', { patient, 'clinical-status': 'active' })).map((c) => c.code?.text ?? '');
  const meds = (await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' })).filter((o) => o.status === 'active');
  const egfr = latest(await http.search<Observation>('Observation', { patient, code: `http://loinc.org|33914-3,${FS}|EGFR` }));
  await http.search('Observation', { patient, code: `http://loinc.org|14959-1,${FS}|UACR` });
  await http.search('Observation', { patient, code: `http://loinc.org|2823-3,${FS}|K` });
  const on = meds.find((o) => /gliflozin|jardiance|farxiga/i.test(`${o.medicationCodeableConcept?.text} ${o.medicationCodeableConcept?.coding?.[0]?.display}`));
  for (const o of meds.filter((m) => /pril\b|sartan/i.test(m.medicationCodeableConcept?.text ?? ''))) {
    await http.update({ ...o, id: o.id!, status: 'stopped', statusReason: { text: 'replaced by SGLT2 inhibitor' } });
  }
  const start = !on && !problems.some((p) => /type 1 diabetes/i.test(p)) && egfr.valueQuantity!.value! >= 20;
  if (start) {
    await http.create({
      resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '1545653', display: 'empagliflozin' }] },
      dosageInstruction: [{ text: '10 mg by mouth once daily', doseAndRate: [{ doseQuantity: { value: 10, unit: 'mg' } }] }],
    });
  }
  await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, code: { coding: [{ system: 'http://loinc.org', code: '14959-1' }] } });
  await submit(`${start ? 'Started empagliflozin 10 mg' : on ? 'Continue the SGLT2 inhibitor' : 'No SGLT2 inhibitor'}; RAAS blocker stopped.`);
}
