// Decides right, but when it starts testosterone it orders 400 mg IM every week - four times the label's weekly
// maximum exposure (400 mg every 2 weeks at most).
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, DiagnosticReport, Observation } from '@medplum/fhirtypes';

export const description = 'starts cypionate 400 mg IM weekly when indicated';
export const catches = ['androgen_orders'];
export const mustFail = 'some';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const conditions = await http.search<Condition>('Condition', { patient });
  const path = (await http.search<DiagnosticReport>('DiagnosticReport', { patient, category: 'SP' })).find((r) => /gleason/i.test(r.conclusion ?? ''));
  const labs = await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|2986-8,http://loinc.org|2857-1,http://loinc.org|4544-3' });
  const pca = conditions.find((c) => c.code?.coding?.some((x) => x.code === '399068003') && c.clinicalStatus?.coding?.[0]?.code === 'active');
  const t = labs.filter((o) => o.code?.coding?.some((c) => c.code === '2986-8'));
  const doc = (text: string) => http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  if (pca && path) {
    const m = /(\d)\+(\d), in (\d+) of (\d+)/.exec(path.conclusion!)!;
    await doc(`Prostate cancer diagnosed ${pca.onsetDateTime!.slice(0, 10)}, Gleason ${m[1]}+${m[2]}=${Number(m[1]) + Number(m[2])}, ${m[3]} of ${m[4]} cores. Testosterone is contraindicated.`);
    await submit(JSON.stringify({ startTestosterone: false, gleason: `${m[1]}+${m[2]}`, diagnosed: pca.onsetDateTime!.slice(0, 10) }));
    return;
  }
  const confirmed = new Set(t.filter((o) => (o.valueQuantity?.value ?? 999) < 300 && Number((o.effectiveDateTime ?? '').slice(11, 13)) < 10).map((o) => o.effectiveDateTime!.slice(0, 10))).size >= 2;
  if (confirmed) {
    await http.create({
      resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '10379', display: 'testosterone' }], text: 'testosterone cypionate 200 mg/mL' },
      dosageInstruction: [{ text: '400 mg IM weekly', route: { coding: [{ system: 'http://snomed.info/sct', code: '78421000' }] }, timing: { repeat: { frequency: 1, period: 1, periodUnit: 'wk' } }, doseAndRate: [{ doseQuantity: { value: 400, unit: 'mg' } }] }],
    });
  }
  await doc(`Testosterone ${t.map((o) => o.valueQuantity?.value).join(', ')} ng/dL. ${confirmed ? 'Start testosterone cypionate 400 mg IM weekly.' : 'Not confirmed: do not start testosterone; repeat morning testosterone twice.'}`);
  await submit(JSON.stringify({ startTestosterone: confirmed, gleason: null, diagnosed: null }));
}
