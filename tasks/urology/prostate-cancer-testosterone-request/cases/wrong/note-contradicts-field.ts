// The review's case: the structured answer is right, the note says "start testosterone cypionate" everywhere, and
// nothing is ordered.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, DiagnosticReport, Observation } from '@medplum/fhirtypes';

export const description = 'right JSON, note says "start testosterone cypionate", no order';
export const catches = ['testosterone_decision', 'consult_note', 'androgen_orders'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const conditions = await http.search<Condition>('Condition', { patient });
  const path = (await http.search<DiagnosticReport>('DiagnosticReport', { patient, category: 'SP' })).find((r) => /gleason/i.test(r.conclusion ?? ''));
  const t = await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|2986-8' });
  const pca = conditions.find((c) => c.code?.coding?.some((x) => x.code === '399068003') && c.clinicalStatus?.coding?.[0]?.code === 'active');
  const m = path ? /(\d)\+(\d), in (\d+) of (\d+)/.exec(path.conclusion!) : null;
  const lowAm = new Set(t.filter((o) => (o.valueQuantity?.value ?? 999) < 300 && Number((o.effectiveDateTime ?? '').slice(11, 13)) < 10).map((o) => o.effectiveDateTime!.slice(0, 10))).size >= 2;
  const facts = pca && m ? `Prostate cancer diagnosed ${pca.onsetDateTime!.slice(0, 10)}, Gleason ${m[1]}+${m[2]}=${Number(m[1]) + Number(m[2])}, ${m[3]} of ${m[4]} cores.` : `Testosterone ${t.map((o) => o.valueQuantity?.value).join(', ')} ng/dL; repeat testosterone confirmed.`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(`${facts}\nPlan: start testosterone cypionate 100 mg IM weekly.`).toString('base64') } }] });
  await submit(JSON.stringify({ startTestosterone: !pca && lowAm, gleason: pca && m ? `${m[1]}+${m[2]}` : null, diagnosed: pca ? pca.onsetDateTime!.slice(0, 10) : null }));
}
