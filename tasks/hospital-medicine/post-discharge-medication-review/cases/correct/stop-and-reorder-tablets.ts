// Stops a changed order (status cancelled) and re-orders with the SCD and "1 tablet" doses, pantoprazole under its
// ingredient code with the frequency only in text ("BID"); answers as JSON.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Composition, MedicationRequest, MedicationStatement } from '@medplum/fhirtypes';

export const description = 'cancel + re-order with SCD codes and tablet counts; JSON answer';

const DRUGS = ['naproxen', 'pantoprazole', 'lisinopril', 'atorvastatin', 'metformin', 'amlodipine', 'furosemide', 'metoprolol', 'losartan', 'apixaban', 'levothyroxine', 'aspirin', 'clopidogrel'];
const drug = (c?: { text?: string; coding?: { display?: string }[] }) => DRUGS.find((d) => `${c?.text ?? ''} ${(c?.coding ?? []).map((x) => x.display).join(' ')}`.toLowerCase().includes(d)) ?? '?';
const perDay = (d?: { doseAndRate?: { doseQuantity?: { value?: number } }[]; timing?: { repeat?: { frequency?: number } } }[]) =>
  (d?.[0]?.doseAndRate?.[0]?.doseQuantity?.value ?? 0) * (d?.[0]?.timing?.repeat?.frequency ?? 1);
/** Held SCDs of the discharge doses (RxNorm). */
const SCD: Record<string, [string, string]> = {
  'atorvastatin 80': ['259255', 'atorvastatin 80 MG Oral Tablet'], 'clopidogrel 75': ['309362', 'clopidogrel 75 MG Oral Tablet'], 'furosemide 40': ['313988', 'furosemide 40 MG Oral Tablet'],
};

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const summaries = await http.search<Composition>('Composition', { patient });
  const summary = summaries.filter((c) => c.type?.coding?.some((x) => x.code === '18842-5')).sort((a, b) => b.date.localeCompare(a.date))[0];
  const orders = (await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' })).filter((o) => o.status === 'active');
  const out: { drug: string; action: string; dose?: string }[] = [];
  for (const section of summary.section ?? []) for (const e of section.entry ?? []) {
    const s = await http.request<MedicationStatement>('GET', e.reference!);
    const name = drug(s.medicationCodeableConcept);
    const mine = orders.filter((o) => drug(o.medicationCodeableConcept) === name);
    if (s.status === 'stopped') {
      for (const o of mine) await http.request('PATCH', `MedicationRequest/${o.id}`, [{ op: 'replace', path: '/status', value: 'cancelled' }]);
      if (mine.length) out.push({ drug: name, action: 'stop - discontinued in hospital, do not resume' });
      continue;
    }
    if (mine.length && perDay(mine[0].dosageInstruction) === perDay(s.dosage)) continue;
    for (const o of mine) await http.request('PATCH', `MedicationRequest/${o.id}`, [{ op: 'replace', path: '/status', value: 'cancelled' }]);
    const mg = s.dosage![0].doseAndRate![0].doseQuantity!.value!;
    const scd = SCD[`${name} ${mg}`];
    const twice = (s.dosage![0].timing?.repeat?.frequency ?? 1) === 2;
    await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      medicationCodeableConcept: scd ? { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: scd[0], display: scd[1] }] } : s.medicationCodeableConcept,
      dosageInstruction: [scd ? { text: '1 tab PO daily', doseAndRate: [{ doseQuantity: { value: 1, unit: 'tablet' } }] } : { text: `${mg} mg PO ${twice ? 'BID' : 'daily'}` }] });
    out.push({ drug: name, action: mine.length ? 'dose change' : 'start', dose: `${mg} mg ${twice ? 'BID' : 'daily'}` });
  }
  const prose = out.length ? out.map((o) => `${o.drug}: ${o.action}${o.dose ? ` ${o.dose}` : ''}.`).join(' ') : 'No discrepancies - orders match the discharge list.';
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(`Medication reconciliation. ${prose}`).toString('base64') } }] });
  await submit(JSON.stringify({ discrepancies: out, summary: prose }));
}
