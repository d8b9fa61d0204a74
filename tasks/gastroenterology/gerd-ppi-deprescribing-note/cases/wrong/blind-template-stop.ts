// A blind agent: reads only the medication list, stops the PPI everywhere and files a template note without the
// chart's labs or history.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest } from '@medplum/fhirtypes';

export const description = 'never reads problems or labs; stops omeprazole and files a template note';
export const catches = ['note_labs', 'reviewed_cbc_and_kidney'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  for (const o of meds.filter((m) => /omeprazole/i.test(m.medicationCodeableConcept?.text ?? ''))) {
    await http.update({ ...o, id: o.id!, status: 'stopped', statusReason: { text: 'PPI de-prescribing' } });
  }
  const text = 'GI e-consult. GERD on omeprazole for years. Labs reviewed and unremarkable. Plan: stop omeprazole; use on demand if symptoms recur.';
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  await submit('Stop omeprazole; on demand if symptoms recur.');
}
