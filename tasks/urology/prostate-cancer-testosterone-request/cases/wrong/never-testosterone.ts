// Believes testosterone causes prostate cancer and declines it for every man, whatever the chart shows.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, DiagnosticReport, Observation } from '@medplum/fhirtypes';

export const description = 'declines testosterone for everyone ("raises prostate cancer risk")';
export const catches = ['testosterone_decision', 'androgen_orders', 'consult_note'];
export const mustFail = 'some';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const conditions = await http.search<Condition>('Condition', { patient });
  const path = (await http.search<DiagnosticReport>('DiagnosticReport', { patient, category: 'SP' })).find((r) => /gleason/i.test(r.conclusion ?? ''));
  const t = await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|2986-8' });
  const pca = conditions.find((c) => c.code?.coding?.some((x) => x.code === '399068003'));
  const m = path ? /(\d)\+(\d), in (\d+) of (\d+)/.exec(path.conclusion!) : null;
  const facts = pca && m ? `Prostate cancer diagnosed ${pca.onsetDateTime!.slice(0, 10)}, Gleason ${m[1]}+${m[2]}=${Number(m[1]) + Number(m[2])}, ${m[3]} of ${m[4]} cores.` : `Testosterone ${t.map((o) => o.valueQuantity?.value).join(', ')} ng/dL.`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(`${facts} Testosterone raises prostate cancer risk - not recommended.`).toString('base64') } }] });
  await submit(JSON.stringify({ startTestosterone: false, gleason: pca && m ? `${m[1]}+${m[2]}` : null, diagnosed: pca ? pca.onsetDateTime!.slice(0, 10) : null }));
}
