// Reads the TSH history by LOINC and the levothyroxine order, decides from the latest TSH (ATA 2014), changes the
// dose in place on the existing order (a real tablet strength: 12-13 mcg steps), and answers in prose with a US date.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'changes the dose in place on the existing order (112/137 mcg tablet steps), answers in prose with a US date';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const tshs = (await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|3016-3' }))
    .filter((o) => o.valueQuantity?.value !== undefined).sort((a, b) => (b.effectiveDateTime ?? b.issued ?? '').localeCompare(a.effectiveDateTime ?? a.issued ?? ''));
  const latest = tshs[0]!;
  const tsh = latest.valueQuantity!.value!;
  const orders = (await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' }))
    .filter((o) => /levothyroxine|synthroid/i.test(JSON.stringify(o.medicationCodeableConcept)));
  const order = orders[0]!;
  const q = order.dosageInstruction![0].doseAndRate![0].doseQuantity!;
  const mcg = /mg|milligram/i.test(q.code ?? q.unit ?? '') && !/ug|mcg/i.test(q.code ?? '') ? q.value! * 1000 : q.value!;
  const change = tsh < 0.1 ? -13 : tsh >= 10 ? 12 : 0;
  const next = mcg + change;
  if (change !== 0) {
    await http.read('MedicationRequest', order.id!);
    await http.request('PUT', `MedicationRequest/${order.id}`, {
      ...order,
      dosageInstruction: [{ text: `${next} mcg by mouth once daily, 30-60 min before breakfast`, timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd' } },
        doseAndRate: [{ doseQuantity: { value: next, unit: 'mcg', system: 'http://unitsofmeasure.org', code: 'ug' } }] }],
      note: [{ text: `Dose changed for TSH ${tsh}` }],
    });
  }
  const [y, m, d] = latest.effectiveDateTime!.slice(0, 10).split('-');
  const us = `${m}/${d}/${y}`;
  const decision = change > 0 ? `TSH is high: I increased the levothyroxine to ${next} mcg daily.` : change < 0 ? `TSH is suppressed, so I would not increase it; I reduced levothyroxine to ${next} mcg daily.` : `TSH is in range: I would not increase the levothyroxine; kept at ${mcg} mcg daily.`;
  const note = `Levothyroxine review. TSH ${tsh} mIU/L (${us}). ${decision} Recheck TSH in 6-8 weeks after any change.`;
  await http.create({
    resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    type: { coding: [{ system: 'http://loinc.org', code: '11488-4', display: 'Consult note' }] },
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }],
  });
  await submit(`Latest TSH ${tsh} mIU/L on ${us}. Currently on ${mcg} mcg daily. ${decision}`);
}
