// Right decision, but the replaced order is put on hold instead of stopped: it can be resumed next to the new one.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'changes the dose by a new order but leaves the old one on-hold';
export const catches = ['levothyroxine_matches_tsh'];
export const mustFail = 'some';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const tsh = (await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|3016-3' }))
    .filter((o) => o.valueQuantity).sort((a, b) => (b.effectiveDateTime ?? b.issued ?? '').localeCompare(a.effectiveDateTime ?? a.issued ?? ''))[0]!;
  const value = tsh.valueQuantity!.value!;
  const order = (await http.search<MedicationRequest>('MedicationRequest', { patient, code: 'http://www.nlm.nih.gov/research/umls/rxnorm|10582', status: 'active' }))[0]!;
  const q = order.dosageInstruction![0].doseAndRate![0].doseQuantity!;
  const mcg = q.code === 'mg' ? q.value! * 1000 : q.value!;
  const step = value >= 10 ? 25 : value < 0.1 ? -25 : 0;
  if (step !== 0) {
    await http.request('PATCH', `MedicationRequest/${order.id}`, [{ op: 'replace', path: '/status', value: 'on-hold' }]);
    await http.create<MedicationRequest>({
      resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '10582', display: 'levothyroxine' }] },
      dosageInstruction: [{ timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd' } }, doseAndRate: [{ doseQuantity: { value: mcg + step, unit: 'mcg', code: 'ug', system: 'http://unitsofmeasure.org' } }] }],
    });
  }
  const plan = step > 0 ? `Increase levothyroxine to ${mcg + step} mcg daily.` : step < 0 ? `Reduce levothyroxine to ${mcg + step} mcg daily.` : `No change, levothyroxine ${mcg} mcg daily.`;
  await http.create({
    resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(`TSH ${value}. ${plan}`).toString('base64') } }],
  });
  await submit({ tsh: value, tshDate: tsh.effectiveDateTime!.slice(0, 10), increaseDose: step > 0, currentDoseMcg: mcg, newDoseMcg: mcg + step });
}
