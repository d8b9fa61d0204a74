// Changes a dose by editing the existing order in place (no stop and re-order), writes new drugs under brand names as
// text only (Protonix, Plavix), stops with status "stopped", and answers in prose; the note is a progress note.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Composition, MedicationRequest, MedicationStatement } from '@medplum/fhirtypes';

export const description = 'dose edited in place; new drugs by brand name as text; prose answer; progress note';

const DRUGS = ['naproxen', 'pantoprazole', 'lisinopril', 'atorvastatin', 'metformin', 'amlodipine', 'furosemide', 'metoprolol', 'losartan', 'apixaban', 'levothyroxine', 'aspirin', 'clopidogrel'];
const BRAND: Record<string, string> = { pantoprazole: 'Protonix', clopidogrel: 'Plavix', atorvastatin: 'Lipitor', furosemide: 'Lasix' };
const drug = (c?: { text?: string; coding?: { display?: string }[] }) => DRUGS.find((d) => `${c?.text ?? ''} ${(c?.coding ?? []).map((x) => x.display).join(' ')}`.toLowerCase().includes(d)) ?? '?';
const perDay = (d?: { doseAndRate?: { doseQuantity?: { value?: number } }[]; timing?: { repeat?: { frequency?: number } } }[]) =>
  (d?.[0]?.doseAndRate?.[0]?.doseQuantity?.value ?? 0) * (d?.[0]?.timing?.repeat?.frequency ?? 1);

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const [summary] = await http.search<Composition>('Composition', { patient, type: 'http://loinc.org|18842-5' });
  const statements: { s: MedicationStatement; home: boolean }[] = [];
  for (const section of summary.section ?? []) for (const e of section.entry ?? []) {
    statements.push({ s: await http.request<MedicationStatement>('GET', e.reference!), home: section.code?.coding?.[0]?.code === '10183-2' });
  }
  const orders = (await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' })).filter((o) => o.status === 'active');
  const lines: string[] = [];
  for (const { s, home } of statements) {
    const name = drug(s.medicationCodeableConcept);
    const mine = orders.filter((o) => drug(o.medicationCodeableConcept) === name);
    if (!home) {
      for (const o of mine) await http.request('PATCH', `MedicationRequest/${o.id}`, [{ op: 'replace', path: '/status', value: 'stopped' }]);
      if (mine.length) lines.push(`${name}: STOPPED (discontinued in hospital; do not restart).`);
      continue;
    }
    const sig = s.dosage![0];
    if (mine.length === 0) {
      const dose = sig.doseAndRate![0].doseQuantity!.value!;
      await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
        medicationCodeableConcept: { text: `${BRAND[name] ?? name} ${dose} mg tablet` }, dosageInstruction: [{ text: sig.text }] });
      lines.push(`Started ${BRAND[name] ?? name} (${name}) ${sig.text} as on the discharge list.`);
    } else if (perDay(mine[0].dosageInstruction) !== perDay(s.dosage)) {
      await http.request('PATCH', `MedicationRequest/${mine[0].id}`, [
        { op: 'replace', path: '/dosageInstruction', value: [sig] },
        { op: 'replace', path: '/medicationCodeableConcept', value: s.medicationCodeableConcept },
      ]);
      lines.push(`Changed ${name} to ${sig.text} per discharge summary.`);
    }
  }
  const text = lines.length ? lines.join(' ') : 'No discrepancies found between the discharge summary and our orders; nothing changed.';
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    type: { coding: [{ system: 'http://loinc.org', code: '11506-3', display: 'Progress note' }] },
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(`Med rec post discharge. ${text}`).toString('base64') } }] });
  await submit(text);
}
