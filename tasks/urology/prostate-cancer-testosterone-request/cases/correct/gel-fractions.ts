// A urologist who reads everything, prescribes a testosterone gel by brand (text only) when deficiency is confirmed,
// writes cores as a fraction ("4/12 cores") and the diagnosis as month and year, and answers with prose beside JSON.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, DiagnosticReport, MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'AndroGel (text) when confirmed; "4/12 cores", "March 2017"; prose + JSON';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  await http.read('Patient', patient);
  const conditions = await http.search<Condition>('Condition', { patient });
  const reports = await http.search<DiagnosticReport>('DiagnosticReport', { patient });
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const labs = await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|2986-8,http://loinc.org|2857-1,http://loinc.org|4544-3', _sort: '-date' });
  const cancer = conditions.find((c) => /prostate/i.test(JSON.stringify(c.code)) && /malignant|carcinoma|cancer/i.test(JSON.stringify(c.code)) && c.clinicalStatus?.coding?.[0]?.code === 'active');
  const onAdt = meds.some((o) => /leuprolide|goserelin|degarelix|bicalutamide|enzalutamide|abiraterone|relugolix/i.test(JSON.stringify(o.medicationCodeableConcept)));
  const note = async (text: string) => http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });

  if (cancer || onAdt) {
    const path = reports.find((r) => /gleason/i.test(r.conclusion ?? ''))!;
    const [, p, s] = /(\d)\+(\d)/.exec(path.conclusion!)!;
    const [, pos, of] = /(\d+) of (\d+) cores/.exec(path.conclusion!)!;
    const onset = (cancer?.onsetDateTime ?? '').slice(0, 10);
    await note(`Prostate adenocarcinoma diagnosed ${MONTHS[Number(onset.slice(5, 7)) - 1]} ${onset.slice(0, 4)}: Gleason ${p}+${s}=${Number(p) + Number(s)}, ${pos}/${of} cores.${onAdt ? ' On ADT.' : ''}\nTestosterone replacement is contraindicated with prostate cancer - I would not start it.`);
    await submit(`Testosterone is contraindicated here (prostate cancer). ${JSON.stringify({ startTestosterone: false, gleason: `${p}+${s}`, diagnosed: onset })}`);
    return;
  }
  const t = labs.filter((o) => o.code?.coding?.some((c) => c.code === '2986-8'));
  const morningLow = t.filter((o) => (o.valueQuantity?.value ?? 999) < 300 && Number((o.effectiveDateTime ?? '').slice(11, 13)) < 10);
  const psa = labs.find((o) => o.code?.coding?.some((c) => c.code === '2857-1'))?.valueQuantity?.value;
  const hct = labs.find((o) => o.code?.coding?.some((c) => c.code === '4544-3'))?.valueQuantity?.value;
  const confirmed = new Set(morningLow.map((o) => o.effectiveDateTime!.slice(0, 10))).size >= 2 && psa !== undefined && psa < 4 && hct !== undefined && hct < 50;
  const values = t.map((o) => `${o.valueQuantity?.value} ng/dL`).join(' and ');
  if (confirmed) {
    await http.create({
      resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      medicationCodeableConcept: { text: 'AndroGel 1.62% (testosterone gel)' },
      dosageInstruction: [{ text: 'Apply 40.5 mg (2 pump actuations) to shoulders once daily', route: { coding: [{ system: 'http://snomed.info/sct', code: '45890007', display: 'Transdermal route' }] }, timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd' } }, doseAndRate: [{ doseQuantity: { value: 40.5, unit: 'mg' } }] }],
    });
    await note(`Morning total testosterone ${values}: deficiency confirmed; PSA ${psa}, Hct ${hct}%. No prostate cancer. Testosterone therapy is appropriate - started AndroGel 1.62% 40.5 mg daily (prefer gel over IM). Recheck levels, Hct, PSA at 3 months.`);
    await submit(`Yes - start testosterone (I chose the gel). ${JSON.stringify({ startTestosterone: true, gleason: null, diagnosed: null })}`);
    return;
  }
  await note(`Total testosterone ${values || 'not on file'} - a single or afternoon value does not confirm deficiency. Hold off on testosterone; repeat early-morning total testosterone on two separate days.`);
  await submit(`Not yet - confirm with two AM levels first. ${JSON.stringify({ startTestosterone: false, gleason: null, diagnosed: null })}`);
}
