// A clinician who writes US dates ("03/23/2017"), "Gleason 3+3 (score 6)", prescribes cypionate 200 mg every 2 weeks
// (the same weekly exposure as requested) when deficiency is confirmed, and answers JSON with a US date.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, DiagnosticReport, MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'US dates, "Gleason 3+3 (score 6)", cypionate 200 mg IM every 2 weeks when confirmed';

const us = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  await http.read('Patient', patient);
  const conditions = await http.search<Condition>('Condition', { patient, category: 'problem-list-item' });
  const reports = await http.search<DiagnosticReport>('DiagnosticReport', { patient, category: 'SP' });
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient });
  const labs = await http.search<Observation>('Observation', { patient });
  const doc = (text: string) => http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  const pca = conditions.find((c) => /neoplasm of prostate|prostate cancer/i.test(c.code?.text ?? '') && c.clinicalStatus?.coding?.[0]?.code === 'active');
  if (pca) {
    const r = reports.filter((x) => /gleason/i.test(x.conclusion ?? '')).sort((a, b) => (b.effectiveDateTime ?? '').localeCompare(a.effectiveDateTime ?? ''))[0];
    const m = /(\d)\+(\d), in (\d+) of (\d+)/.exec(r.conclusion ?? '')!;
    const dx = (pca.onsetDateTime ?? '').slice(0, 10);
    const adt = meds.some((o) => o.status === 'active' && /leuprolide/i.test(JSON.stringify(o.medicationCodeableConcept)));
    await doc(`Prostate cancer dx ${us(dx)}; biopsy Gleason ${m[1]}+${m[2]} (score ${Number(m[1]) + Number(m[2])}), ${m[3]} of ${m[4]} cores.${adt ? ' On leuprolide.' : ''} Testosterone therapy: not recommended (contraindicated with prostate cancer).`);
    await submit(JSON.stringify({ startTestosterone: false, gleason: `${m[1]}+${m[2]}`, diagnosed: us(dx) }));
    return;
  }
  const t = labs.filter((o) => o.code?.coding?.some((c) => c.code === '2986-8') && o.valueQuantity);
  const am = t.filter((o) => o.valueQuantity!.value! < 300 && /T0[0-9]:/.test(o.effectiveDateTime ?? ''));
  const psa = labs.filter((o) => o.code?.coding?.some((c) => c.code === '2857-1')).map((o) => o.valueQuantity?.value ?? 99)[0];
  const hct = labs.filter((o) => o.code?.coding?.some((c) => c.code === '4544-3')).map((o) => o.valueQuantity?.value ?? 99)[0];
  const ok = new Set(am.map((o) => o.effectiveDateTime!.slice(0, 10))).size >= 2 && (psa ?? 99) < 4 && (hct ?? 99) < 50;
  if (ok) {
    await http.create({
      resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      medicationCodeableConcept: { text: 'Depo-Testosterone (testosterone cypionate) 200 mg/mL' },
      dosageInstruction: [{ text: '200 mg IM every 2 weeks', timing: { repeat: { frequency: 1, period: 2, periodUnit: 'wk' } }, doseAndRate: [{ doseQuantity: { value: 200, unit: 'mg' } }] }],
    });
  }
  await doc(ok
    ? `Testosterone ${t.map((o) => `${o.valueQuantity!.value} ng/dL (${us(o.effectiveDateTime!.slice(0, 10))})`).join(', ')}; PSA ${psa}, Hct ${hct}. Confirmed deficiency - start testosterone cypionate 200 mg IM every 2 weeks.`
    : `Testosterone ${t.map((o) => `${o.valueQuantity!.value} ng/dL`).join(', ')} - not confirmed. Not starting testosterone; please repeat morning testosterone twice.`);
  await submit(JSON.stringify({ startTestosterone: ok, gleason: null, diagnosed: null }));
}
