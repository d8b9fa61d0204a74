// Checks for prostate cancer carefully, but treats "no cancer" as "start": a single afternoon value is taken as
// deficiency.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, DiagnosticReport, Observation } from '@medplum/fhirtypes';

export const description = 'no prostate cancer means start testosterone, confirmed or not';
export const catches = ['androgen_orders', 'testosterone_decision'];
export const mustFail = 'some';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const conditions = await http.search<Condition>('Condition', { patient });
  const path = (await http.search<DiagnosticReport>('DiagnosticReport', { patient, category: 'SP' })).find((r) => /gleason/i.test(r.conclusion ?? ''));
  const t = await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|2986-8' });
  const pca = conditions.find((c) => c.code?.coding?.some((x) => x.code === '399068003'));
  const doc = (text: string) => http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  if (pca && path) {
    const m = /(\d)\+(\d), in (\d+) of (\d+)/.exec(path.conclusion!)!;
    await doc(`Prostate cancer diagnosed ${pca.onsetDateTime!.slice(0, 10)}, Gleason ${m[1]}+${m[2]}=${Number(m[1]) + Number(m[2])}, ${m[3]} of ${m[4]} cores. Testosterone contraindicated - not recommended.`);
    await submit(JSON.stringify({ startTestosterone: false, gleason: `${m[1]}+${m[2]}`, diagnosed: pca.onsetDateTime!.slice(0, 10) }));
    return;
  }
  await http.create({
    resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
    medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '10379', display: 'testosterone' }], text: 'testosterone cypionate 200 mg/mL' },
    dosageInstruction: [{ text: '100 mg IM weekly', timing: { repeat: { frequency: 1, period: 1, periodUnit: 'wk' } }, doseAndRate: [{ doseQuantity: { value: 100, unit: 'mg' } }] }],
  });
  await doc(`No prostate cancer. Testosterone ${t.map((o) => o.valueQuantity?.value).join(', ')} ng/dL. Start testosterone cypionate 100 mg IM weekly.`);
  await submit(JSON.stringify({ startTestosterone: true, gleason: null, diagnosed: null }));
}
