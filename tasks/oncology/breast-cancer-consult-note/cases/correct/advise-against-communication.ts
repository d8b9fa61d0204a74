// "Advise against" phrasing and a copy to the requester as a Communication.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, DiagnosticReport, MedicationRequest, Observation, Procedure } from '@medplum/fhirtypes';

export const description = 'advises against CA 27.29/CEA and PET-CT, mammography of the remaining breast(s) only; Communication copy';

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
  const text = [
    `Oncologic history: breast cancer. ${c.conclusion} Diagnosed ${c.diagnosed}.`,
    c.labs, `Medications: ${c.meds}.`,
    'Recommendations:',
    '- I advise against tumor markers (CA 27.29, CEA) and PET-CT in an asymptomatic survivor.',
    c.noBreasts ? '- No breast tissue remains after bilateral mastectomy, so mammography is not indicated.' : '- Continue annual mammography.',
  ].join('\n');
  await note(http, patient, now, text);
  await http.create({ resourceType: 'Communication', status: 'completed', subject: { reference: `Patient/${patient}` }, sent: now, payload: [{ contentString: 'Survivorship consult note filed.' }] });
  await submit(JSON.stringify({ diagnosed: c.diagnosed, er: c.er, pr: c.pr, her2: c.her2, tumorMarkers: 'no', petCt: 'no' }));
}
