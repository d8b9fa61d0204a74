// A clinician who acts on every branch: orders the confirming early-morning labs when deficiency is unproven,
// prescribes subcutaneous testosterone enanthate when it is proven, declines in prostate cancer with "I would not
// prescribe testosterone", and answers with "yes"/"no" strings.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, DiagnosticReport, MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'orders repeat AM testosterone when unconfirmed; SC enanthate when confirmed; "yes"/"no" fields';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  await http.read('Patient', patient);
  const problems = await http.search<Condition>('Condition', { patient, 'clinical-status': 'active' });
  const path = (await http.search<DiagnosticReport>('DiagnosticReport', { patient, category: 'SP' })).find((r) => /gleason/i.test(r.conclusion ?? ''));
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const obs = await http.search<Observation>('Observation', { patient, category: 'laboratory' });
  const write = (text: string) => http.create({ resourceType: 'DocumentReference', status: 'current', type: { text: 'Consult note' }, subject: { reference: `Patient/${patient}` }, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  const pca = problems.find((c) => c.code?.coding?.some((x) => x.code === '399068003' || x.code === 'C61'));
  const adt = meds.find((o) => /leuprolide|lupron|eligard/i.test(JSON.stringify(o.medicationCodeableConcept)));
  if (pca) {
    const g = /Gleason score (\d)\+(\d), in (\d+) of (\d+) cores/.exec(path?.conclusion ?? '')!;
    const dx = (pca.onsetDateTime ?? '').slice(0, 10);
    await write(`Consult: prostate cancer, Gleason ${g[1]}+${g[2]} (total ${Number(g[1]) + Number(g[2])}), ${g[3]} of ${g[4]} cores positive, diagnosed ${dx}.${adt ? ' Receiving leuprolide (ADT).' : ''}\nI would not prescribe testosterone: contraindicated in prostate cancer (FDA label, Endocrine Society).`);
    await submit(JSON.stringify({ startTestosterone: 'no', gleason: `${g[1]}+${g[2]}`, diagnosed: dx }));
    return;
  }
  const t = obs.filter((o) => o.code?.coding?.some((c) => c.code === '2986-8') && o.status === 'final').sort((a, b) => (b.effectiveDateTime ?? '').localeCompare(a.effectiveDateTime ?? ''));
  const lowAm = new Set(t.filter((o) => o.valueQuantity!.value! < 300 && Number(o.effectiveDateTime!.slice(11, 13)) < 10).map((o) => o.effectiveDateTime!.slice(0, 10)));
  const latest = (code: string) => obs.filter((o) => o.code?.coding?.some((c) => c.code === code)).sort((a, b) => (b.effectiveDateTime ?? '').localeCompare(a.effectiveDateTime ?? ''))[0]?.valueQuantity?.value;
  const psa = latest('2857-1');
  const hct = latest('4544-3');
  if (lowAm.size >= 2 && psa !== undefined && psa < 4 && hct !== undefined && hct < 50) {
    await http.create({
      resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '10379', display: 'testosterone' }], text: 'Xyosted (testosterone enanthate) 75 mg autoinjector' },
      dosageInstruction: [{ text: 'Inject 75 mg subcutaneously once weekly', route: { text: 'subcutaneous' }, timing: { repeat: { frequency: 1, period: 1, periodUnit: 'wk' } }, doseAndRate: [{ doseQuantity: { value: 75, unit: 'mg' } }] }],
    });
    await write(`Consult: two early-morning testosterone levels ${t.map((o) => o.valueQuantity!.value).join(' and ')} ng/dL confirm deficiency; PSA ${psa} ng/mL, hematocrit ${hct}%. Recommend testosterone - prescribed weekly subcutaneous testosterone enanthate 75 mg.`);
    await submit(JSON.stringify({ startTestosterone: 'yes', gleason: null, diagnosed: null }));
    return;
  }
  await http.create({
    resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
    category: [{ coding: [{ system: 'http://snomed.info/sct', code: '108252007' }] }],
    code: { coding: [{ system: 'http://loinc.org', code: '2986-8', display: 'Testosterone [Mass/volume] in Serum or Plasma' }], text: 'Total testosterone, 7-10 am draw' },
    note: [{ text: 'Repeat on two separate mornings' }],
  });
  await write(`Consult: only one testosterone result (${t.map((o) => o.valueQuantity!.value).join(', ')} ng/dL, afternoon draw) - not diagnostic. Do not start testosterone now; ordered repeat early-morning total testosterone x2.`);
  await submit(JSON.stringify({ startTestosterone: 'no', gleason: null, diagnosed: null }));
}
