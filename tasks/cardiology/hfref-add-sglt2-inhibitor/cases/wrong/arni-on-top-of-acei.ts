// Adds sacubitril/valsartan without stopping the ACE inhibitor or ARB on board: dual RAAS blockade, and with an ACE
// inhibitor a risk of angioedema.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Observation } from '@medplum/fhirtypes';

export const description = 'adds Entresto while the ACE inhibitor/ARB stays active';
export const catches = ['no_duplicate_gdmt'];

const FS = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';
const latest = (list: Observation[]) => list.filter((o) => o.status !== 'entered-in-error' && o.valueQuantity?.value !== undefined)
  .sort((a, b) => Date.parse(b.effectiveDateTime ?? '') - Date.parse(a.effectiveDateTime ?? ''))[0]!;

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  await http.search('MedicationRequest', { patient, status: 'active' });
  const egfr = latest(await http.search<Observation>('Observation', { patient, code: `http://loinc.org|33914-3,${FS}|EGFR` })).valueQuantity!.value!;
  const k = latest(await http.search<Observation>('Observation', { patient, code: `http://loinc.org|2823-3,${FS}|K` })).valueQuantity!.value!;
  await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
    medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '1656340', display: 'sacubitril 24 MG / valsartan 26 MG Oral Tablet' }] },
    dosageInstruction: [{ text: '1 tablet by mouth twice daily' }] });
  await submit(JSON.stringify({ missing: ['ARNI'], ordered: 'sacubitril/valsartan 24/26 mg BID', egfr, potassium: k }));
}
