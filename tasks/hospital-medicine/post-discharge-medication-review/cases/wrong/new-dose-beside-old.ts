// Orders every new drug and every new dose from the discharge list but never stops anything: the old dose stays
// active beside the new one, and the drug stopped in hospital stays ordered.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Composition, MedicationRequest, MedicationStatement } from '@medplum/fhirtypes';

export const description = 'adds the discharge doses without stopping the old orders or the stopped drug';
export const catches = ['discrepancies_fixed', 'continued_drugs_intact'];
export const mustFail = 'some';

const DRUGS = ['naproxen', 'pantoprazole', 'lisinopril', 'atorvastatin', 'metformin', 'amlodipine', 'furosemide', 'metoprolol', 'losartan', 'apixaban', 'levothyroxine', 'aspirin', 'clopidogrel'];
const drug = (c?: { text?: string }) => DRUGS.find((d) => (c?.text ?? '').toLowerCase().includes(d)) ?? '?';
const perDay = (d?: { doseAndRate?: { doseQuantity?: { value?: number } }[]; timing?: { repeat?: { frequency?: number } } }[]) =>
  (d?.[0]?.doseAndRate?.[0]?.doseQuantity?.value ?? 0) * (d?.[0]?.timing?.repeat?.frequency ?? 1);

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const [summary] = await http.search<Composition>('Composition', { patient, type: 'http://loinc.org|18842-5' });
  const orders = (await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' })).filter((o) => o.status === 'active');
  const added: string[] = [];
  for (const section of summary.section ?? []) for (const e of section.entry ?? []) {
    const s = await http.request<MedicationStatement>('GET', e.reference!);
    if (s.status !== 'active') continue;
    const mine = orders.filter((o) => drug(o.medicationCodeableConcept) === drug(s.medicationCodeableConcept));
    if (mine.length && perDay(mine[0].dosageInstruction) === perDay(s.dosage)) continue;
    await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      medicationCodeableConcept: s.medicationCodeableConcept, dosageInstruction: s.dosage });
    added.push(`${drug(s.medicationCodeableConcept)} ${s.dosage?.[0]?.text}`);
  }
  const text = added.length ? `Ordered per discharge: ${added.join('; ')}.` : 'No changes; lists match.';
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  await submit(text);
}
