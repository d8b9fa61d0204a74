// Reads only the discharge summary's narrative (the section lists), never the MedicationStatements: a reader of the
// document as a person would see it. New drugs are ordered as text only.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Composition, MedicationRequest } from '@medplum/fhirtypes';

export const description = 'parses the section narrative; text-only orders';

const DRUGS = ['naproxen', 'pantoprazole', 'lisinopril', 'atorvastatin', 'metformin', 'amlodipine', 'furosemide', 'metoprolol', 'losartan', 'apixaban', 'levothyroxine', 'aspirin', 'clopidogrel'];
const drugIn = (text: string) => DRUGS.find((d) => text.toLowerCase().includes(d));

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const [summary] = await http.search<Composition>('Composition', { patient, type: 'http://loinc.org|18842-5', _sort: '-date' });
  const orders = (await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' })).filter((o) => o.status === 'active');
  const items = (summary.section ?? []).flatMap((s) => [...(s.text?.div ?? '').matchAll(/<li>(.*?)<\/li>/g)].map((m) => m[1]));
  const done: string[] = [];
  for (const item of items) {
    const name = drugIn(item);
    if (!name) continue;
    const mine = orders.filter((o) => drugIn(o.medicationCodeableConcept?.text ?? '') === name);
    const [, , sig = ''] = item.match(/^(.*?) - (.*?)(?: \(|$)/) ?? [];
    if (/STOP/.test(item)) {
      for (const o of mine) await http.request('PATCH', `MedicationRequest/${o.id}`, [{ op: 'replace', path: '/status', value: 'stopped' }]);
      if (mine.length) done.push(`${name} discontinued (stopped in hospital).`);
    } else if (/NEW/.test(item) && mine.length === 0) {
      await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
        medicationCodeableConcept: { text: name }, dosageInstruction: [{ text: sig }] });
      done.push(`${name} started: ${sig}.`);
    } else if (/CHANGED/.test(item)) {
      for (const o of mine) await http.request('PATCH', `MedicationRequest/${o.id}`, [{ op: 'replace', path: '/status', value: 'stopped' }]);
      await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
        medicationCodeableConcept: { text: name }, dosageInstruction: [{ text: sig }] });
      done.push(`${name} dose changed to ${sig}.`);
    }
  }
  const text = done.length ? done.join(' ') : 'Discharge medication list matches the active orders; no changes needed.';
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(`Post-discharge med reconciliation: ${text}`).toString('base64') } }] });
  await submit(text);
}
