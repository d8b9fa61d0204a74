// Does the right thing to the order and answers right, but the note (with every keyword: levothyroxine, TSH, the
// value, the dose) recommends the opposite of the decision.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'note with the right keywords and numbers recommending the opposite decision';
export const catches = ['rationale_note'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const tsh = (await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|3016-3' }))
    .filter((o) => o.valueQuantity).sort((a, b) => (b.effectiveDateTime ?? b.issued ?? '').localeCompare(a.effectiveDateTime ?? a.issued ?? ''))[0]!;
  const value = tsh.valueQuantity!.value!;
  const order = (await http.search<MedicationRequest>('MedicationRequest', { patient, code: 'http://www.nlm.nih.gov/research/umls/rxnorm|10582', status: 'active' }))[0]!;
  const q = order.dosageInstruction![0].doseAndRate![0].doseQuantity!;
  const mcg = q.code === 'mg' ? q.value! * 1000 : q.value!;
  const step = value >= 10 ? 25 : value < 0.1 ? -25 : 0;
  if (step !== 0) {
    await http.request('PATCH', `MedicationRequest/${order.id}`, [{ op: 'replace', path: '/status', value: 'stopped' }]);
    await http.create<MedicationRequest>({
      resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '10582', display: 'levothyroxine' }] },
      dosageInstruction: [{ timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd' } }, doseAndRate: [{ doseQuantity: { value: mcg + step, unit: 'mcg', code: 'ug', system: 'http://unitsofmeasure.org' } }] }],
    });
  }
  const wrong = step > 0 ? `No change; continue the current dose of levothyroxine ${mcg + step} mcg.` : `Increase levothyroxine to ${mcg + step + 25} mcg daily (currently ${mcg + step} mcg).`;
  await http.create({
    resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(`TSH ${value} mIU/L. ${wrong}`).toString('base64') } }],
  });
  await submit({ tsh: value, tshDate: tsh.effectiveDateTime!.slice(0, 10), increaseDose: step > 0, currentDoseMcg: mcg, newDoseMcg: mcg + step });
}
