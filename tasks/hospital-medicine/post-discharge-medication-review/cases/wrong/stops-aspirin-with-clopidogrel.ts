// Fixes the discrepancies correctly but also "de-duplicates" antiplatelets, stopping the aspirin the discharge summary
// continues (dual antiplatelet therapy after a stent is intended), and stops every drug the summary marks as changed
// rather than re-ordering it at the new dose.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Composition, MedicationRequest, MedicationStatement } from '@medplum/fhirtypes';

export const description = 'stops aspirin when clopidogrel starts, and stops changed drugs instead of adjusting them';
export const catches = ['continued_drugs_intact', 'discrepancies_fixed'];
export const mustFail = 'some';

const DRUGS = ['naproxen', 'pantoprazole', 'lisinopril', 'atorvastatin', 'metformin', 'amlodipine', 'furosemide', 'metoprolol', 'losartan', 'apixaban', 'levothyroxine', 'aspirin', 'clopidogrel'];
const drug = (c?: { text?: string }) => DRUGS.find((d) => (c?.text ?? '').toLowerCase().includes(d)) ?? '?';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const [summary] = await http.search<Composition>('Composition', { patient, type: 'http://loinc.org|18842-5' });
  const orders = (await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' })).filter((o) => o.status === 'active');
  const stop = async (name: string) => { for (const o of orders.filter((x) => drug(x.medicationCodeableConcept) === name)) await http.request('PATCH', `MedicationRequest/${o.id}`, [{ op: 'replace', path: '/status', value: 'stopped' }]); };
  const lines: string[] = [];
  for (const section of summary.section ?? []) for (const e of section.entry ?? []) {
    const s = await http.request<MedicationStatement>('GET', e.reference!);
    const name = drug(s.medicationCodeableConcept);
    const note = s.note?.[0]?.text ?? '';
    if (s.status === 'stopped' || /CHANGED/.test(note)) { await stop(name); lines.push(`Stopped ${name}.`); }
    else if (/NEW/.test(note)) {
      await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
        medicationCodeableConcept: s.medicationCodeableConcept, dosageInstruction: s.dosage });
      lines.push(`Started ${name} ${s.dosage?.[0]?.text}.`);
      if (name === 'clopidogrel') { await stop('aspirin'); lines.push('Stopped aspirin to avoid two antiplatelets.'); }
    }
  }
  const text = lines.length ? lines.join(' ') : 'No discrepancies; the lists match.';
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  await submit(text);
}
