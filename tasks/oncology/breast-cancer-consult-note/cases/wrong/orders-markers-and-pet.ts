// Gives the patient what she asked for: orders CA 27.29 and a PET/CT.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, DiagnosticReport, MedicationRequest, Observation, Procedure } from '@medplum/fhirtypes';

export const description = 'orders CA 27.29 (LOINC 17842-6) and a PET/CT';
export const catches = ['no_routine_markers_or_scans'];

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
  for (const code of [{ system: 'http://loinc.org', code: '17842-6', display: 'Cancer Ag 27-29' }, { system: 'http://snomed.info/sct', code: '450436003', display: 'PET/CT' }]) {
    await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now, code: { coding: [code], text: code.display } });
  }
  await note(http, patient, now, `${c.conclusion} Diagnosed ${c.diagnosed}.\n${c.labs}\nMedications: ${c.meds}.\nPlan: tumor markers and PET/CT ordered; annual mammography.`);
  await submit({ diagnosed: c.diagnosed, er: c.er, pr: c.pr, her2: c.her2, tumorMarkers: true, petCt: true });
}
