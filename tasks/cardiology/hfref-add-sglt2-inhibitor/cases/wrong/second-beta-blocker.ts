// Starts the right missing pillar but also "optimises" the beta blocker by adding metoprolol succinate next to the
// one on board: two beta blockers.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'adds metoprolol succinate on top of the beta blocker already on board';
export const catches = ['no_duplicate_gdmt'];

const FS = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';
const latest = (list: Observation[]) => list.filter((o) => o.status !== 'entered-in-error' && o.valueQuantity?.value !== undefined)
  .sort((a, b) => Date.parse(b.effectiveDateTime ?? '') - Date.parse(a.effectiveDateTime ?? ''))[0]!;

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const meds = (await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' })).filter((o) => o.status === 'active');
  const egfr = latest(await http.search<Observation>('Observation', { patient, code: `http://loinc.org|33914-3,${FS}|EGFR` })).valueQuantity!.value!;
  const k = latest(await http.search<Observation>('Observation', { patient, code: `http://loinc.org|2823-3,${FS}|K` })).valueQuantity!.value!;
  const metoprolol = meds.some((o) => /metoprolol/i.test(`${o.medicationCodeableConcept?.text} ${o.medicationCodeableConcept?.coding?.[0]?.display}`));
  await http.create({
    resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
    medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: metoprolol ? '200031' : '866427', display: metoprolol ? 'carvedilol 6.25 MG Oral Tablet' : '24 HR metoprolol succinate 25 MG Extended Release Oral Tablet' }] },
    dosageInstruction: [{ text: 'once daily by mouth' }],
  });
  await submit(JSON.stringify({ missing: ['beta blocker optimisation'], ordered: 'second beta blocker', egfr, potassium: k }));
}
