// Abbreviations and US dates: "IDC, grade II, ER+/PR+/HER2-", "+"/"-" in the JSON, a month-year diagnosis date in the note.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, DiagnosticReport, MedicationRequest, Observation, Procedure } from '@medplum/fhirtypes';

export const description = 'abbreviated pathology (IDC grade II, ER+/PR-/HER2+), US dates, +/- receptor answers';

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

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const c = await chart(http, patient);
  const sign = (v: string) => (v === 'positive' ? '+' : '-');
  const histology = /ductal/i.test(c.histology) ? 'IDC' : /lobular/i.test(c.histology) ? 'ILC' : c.histology;
  const text = [
    `Breast cancer, diagnosed ${MONTHS[Number(c.diagnosed.slice(5, 7)) - 1]} ${c.diagnosed.slice(0, 4)}: ${histology}, grade ${['', 'I', 'II', 'III'][Number(c.grade)]}, ER${sign(c.er)}/PR${sign(c.pr)}/HER2${sign(c.her2)}.`,
    c.labs, `Medications: ${c.meds}.`,
    c.noBreasts ? 'Plan: after bilateral mastectomy no mammograms are needed; clinical exam every 6-12 months. Tumor markers and PET/CT are not recommended.'
      : 'Plan: yearly mammogram is recommended; clinical exam every 6-12 months. Tumor markers and PET/CT are not recommended.',
  ].join('\n');
  await note(http, patient, now, text);
  await submit({ diagnosed: us(c.diagnosed), er: sign(c.er), pr: sign(c.pr), her2: sign(c.her2), tumorMarkers: false, petCt: false });
}
