// Orders the surveillance mammogram it recommends (CPT 77067) where a breast remains; receptor status spelled out
// ("estrogen receptor positive"); the answer's prose agrees with its false fields.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, DiagnosticReport, MedicationRequest, Observation, Procedure } from '@medplum/fhirtypes';

export const description = 'orders a mammogram (CPT 77067) where a breast remains; spelled-out receptors; prose "I would not order tumor markers or PET/CT"';

const latest = (list: Observation[]) => list.filter((o) => o.valueQuantity?.value !== undefined)
  .sort((a, b) => Date.parse(b.effectiveDateTime ?? '') - Date.parse(a.effectiveDateTime ?? ''))[0]!;
const receptor = (text: string, name: string) => (new RegExp(`\\b${name} (positive|negative)`, 'i').exec(text)?.[1] ?? 'unknown').toLowerCase();

async function chart(http: CaseContext['http'], patient: string) {
  const cancer = (await http.search<Condition>('Condition', { patient, code: 'http://snomed.info/sct|254837009' })).find((c) => c.clinicalStatus?.coding?.[0]?.code === 'active')!;
  const path = (await http.search<DiagnosticReport>('DiagnosticReport', { patient, category: 'SP' })).find((r) => /carcinoma/i.test(r.conclusion ?? ''))!;
  const procs = await http.search<Procedure>('Procedure', { patient });
  const meds = (await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' })).filter((o) => o.status === 'active');
  const hgb = latest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|718-7' }));
  const cr = latest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|2160-0' }));
  const c = path.conclusion!;
  return {
    diagnosed: (cancer.onsetDateTime ?? '').slice(0, 10), conclusion: c, er: receptor(c, 'ER'), pr: receptor(c, 'PR'), her2: receptor(c, 'HER2'),
    histology: /^([^,;]*carcinoma)/i.exec(c)![1], grade: /grade (\d)/i.exec(c)?.[1] ?? '?',
    noBreasts: procs.some((p) => /bilateral .*mastectomy/i.test(p.code?.text ?? '')),
    labs: `Hemoglobin ${hgb.valueQuantity!.value} g/dL (${hgb.effectiveDateTime!.slice(0, 10)}); creatinine ${cr.valueQuantity!.value} mg/dL (${cr.effectiveDateTime!.slice(0, 10)}).`,
    meds: meds.map((m) => `${(m.medicationCodeableConcept?.text ?? '').replace(/ MG\b/g, ' mg')}: ${m.dosageInstruction?.[0]?.text ?? ''}`).join('; ') || 'none',
  };
}
const note = (http: CaseContext['http'], patient: string, now: string, text: string) => http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
  content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
const us = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const c = await chart(http, patient);
  if (!c.noBreasts) {
    await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      code: { coding: [{ system: 'http://www.ama-assn.org/go/cpt', code: '77067', display: 'Screening mammography, bilateral' }], text: 'Mammogram' } });
  }
  const text = [
    `Breast cancer: ${c.histology}, grade ${c.grade}, estrogen receptor ${c.er}, progesterone receptor ${c.pr}, HER2 ${c.her2}; diagnosed ${c.diagnosed}.`,
    c.labs, `Current medications: ${c.meds}.`,
    'Assessment: no evidence of recurrence; she is asymptomatic.',
    `Recommendations: I would not order tumor markers or PET/CT; they do not help asymptomatic survivors. ${c.noBreasts ? 'Mammography does not apply after bilateral mastectomy.' : 'Mammogram ordered; continue yearly mammography.'}`,
  ].join('\n');
  await note(http, patient, now, text);
  await submit(JSON.stringify({ diagnosed: c.diagnosed, er: c.er, pr: c.pr, her2: c.her2, tumorMarkers: false, petCt: false, comment: 'I would not order tumor markers or PET/CT.' }));
}
