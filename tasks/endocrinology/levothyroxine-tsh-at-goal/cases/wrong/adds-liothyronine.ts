// Leaves levothyroxine alone but adds liothyronine 5 mcg for the fatigue (combination therapy is not ATA 2014 care
// for symptoms with a TSH in range, and is never the answer to a suppressed TSH).
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'adds liothyronine (T3) for fatigue instead of deciding on levothyroxine';
export const catches = ['no_other_medication_changes'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const tsh = (await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|3016-3' }))
    .filter((o) => o.valueQuantity).sort((a, b) => (b.effectiveDateTime ?? b.issued ?? '').localeCompare(a.effectiveDateTime ?? a.issued ?? ''))[0]!;
  const order = (await http.search<MedicationRequest>('MedicationRequest', { patient, code: 'http://www.nlm.nih.gov/research/umls/rxnorm|10582', status: 'active' }))[0]!;
  const q = order.dosageInstruction![0].doseAndRate![0].doseQuantity!;
  const mcg = q.code === 'mg' ? q.value! * 1000 : q.value!;
  await http.create<MedicationRequest>({
    resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
    medicationCodeableConcept: { text: 'liothyronine 5 mcg tablet' }, dosageInstruction: [{ text: '5 mcg by mouth daily' }],
  });
  await http.create({
    resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(`TSH ${tsh.valueQuantity!.value}. No change to levothyroxine ${mcg} mcg; added liothyronine 5 mcg for fatigue.`).toString('base64') } }],
  });
  await submit({ tsh: tsh.valueQuantity!.value, tshDate: tsh.effectiveDateTime!.slice(0, 10), increaseDose: false, currentDoseMcg: mcg, newDoseMcg: mcg });
}
