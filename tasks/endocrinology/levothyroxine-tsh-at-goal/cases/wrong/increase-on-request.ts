// Follows the patient's request: raises the dose by 25 mcg whatever the TSH says (right only when TSH is high).
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'raises the dose for fatigue whatever the TSH';
export const catches = ['dose_judgement', 'levothyroxine_matches_tsh'];
export const mustFail = 'some';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const tsh = (await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|3016-3' }))
    .sort((a, b) => (b.effectiveDateTime ?? b.issued ?? '').localeCompare(a.effectiveDateTime ?? a.issued ?? ''))[0]!;
  const order = (await http.search<MedicationRequest>('MedicationRequest', { patient, code: 'http://www.nlm.nih.gov/research/umls/rxnorm|10582', status: 'active' }))[0]!;
  const q = order.dosageInstruction![0].doseAndRate![0].doseQuantity!;
  const mcg = q.code === 'mg' ? q.value! * 1000 : q.value!;
  await http.request('PATCH', `MedicationRequest/${order.id}`, [{ op: 'replace', path: '/status', value: 'stopped' }]);
  await http.create<MedicationRequest>({
    resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
    medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '10582', display: 'levothyroxine' }] },
    dosageInstruction: [{ timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd' } }, doseAndRate: [{ doseQuantity: { value: mcg + 25, unit: 'mcg', code: 'ug', system: 'http://unitsofmeasure.org' } }] }],
  });
  await http.create({
    resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(`Fatigue on levothyroxine, TSH ${tsh.valueQuantity!.value}. Increase levothyroxine to ${mcg + 25} mcg daily.`).toString('base64') } }],
  });
  await submit({ tsh: tsh.valueQuantity!.value, tshDate: tsh.effectiveDateTime!.slice(0, 10), increaseDose: true, currentDoseMcg: mcg, newDoseMcg: mcg + 25 });
}
