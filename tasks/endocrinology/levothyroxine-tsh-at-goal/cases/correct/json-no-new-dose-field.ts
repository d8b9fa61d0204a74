// A careful agent that also reads free T4 and answers with the required fields only (no newDoseMcg when nothing
// changes); for a change it stops the order as "completed" and re-orders with a 25 mcg step coded by ingredient.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'JSON without newDoseMcg when unchanged; old order completed + new coded order for a change';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const all = await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|3016-3,http://loinc.org|3024-7' });
  const tsh = all.filter((o) => o.code.coding?.some((c) => c.code === '3016-3') && o.valueQuantity)
    .sort((a, b) => (b.effectiveDateTime ?? b.issued ?? '').localeCompare(a.effectiveDateTime ?? a.issued ?? ''))[0]!;
  const value = tsh.valueQuantity!.value!;
  const order = (await http.search<MedicationRequest>('MedicationRequest', { patient, code: 'http://www.nlm.nih.gov/research/umls/rxnorm|10582', status: 'active' }))[0]!;
  const q = order.dosageInstruction![0].doseAndRate![0].doseQuantity!;
  const mcg = q.code === 'mg' ? q.value! * 1000 : q.value!;
  const step = value >= 10 ? 25 : value < 0.1 ? -25 : 0;
  const answer: Record<string, unknown> = { tsh: value, tshDate: tsh.effectiveDateTime!.slice(0, 10), increaseDose: step > 0, currentDoseMcg: mcg };
  if (step !== 0) {
    await http.request('PATCH', `MedicationRequest/${order.id}`, [{ op: 'replace', path: '/status', value: 'completed' }]);
    await http.create<MedicationRequest>({
      resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '10582', display: 'levothyroxine' }] },
      dosageInstruction: [{ text: 'once daily', timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd' } },
        doseAndRate: [{ doseQuantity: { value: mcg + step, unit: 'ug', system: 'http://unitsofmeasure.org', code: 'ug' } }] }],
    });
    answer.newDoseMcg = mcg + step;
  }
  const plan = step > 0 ? `Increase the dose to ${mcg + step} mcg daily.` : step < 0 ? `Decrease to ${mcg + step} mcg daily; no increase.` : `No change: levothyroxine stays ${mcg} mcg daily; look for other causes of fatigue.`;
  await http.create({
    resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(`Levothyroxine / TSH review: TSH ${value}. ${plan}`).toString('base64') } }],
  });
  await submit(answer);
}
