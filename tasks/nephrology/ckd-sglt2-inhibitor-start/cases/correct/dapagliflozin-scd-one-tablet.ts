// Decides by KDIGO 2024 from the chart (already on one: continue; type 1 diabetes or eGFR < 20: do not start;
// otherwise start), looks the dapagliflozin 10 mg clinical drug up in the server's RxNorm ($expand, as the
// terminology_search tool does), starts it dosed "1 tablet", orders the UACR as LOINC 9318-7, and answers in prose.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, MedicationRequest, Observation, ValueSet } from '@medplum/fhirtypes';

export const description = 'dapagliflozin 10 mg SCD found by terminology $expand, dosed "1 tablet", UACR LOINC 9318-7, prose answer';

const FS = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';
const latest = (list: Observation[]) => list.filter((o) => o.status !== 'entered-in-error' && o.valueQuantity?.value !== undefined)
  .sort((a, b) => Date.parse(b.effectiveDateTime ?? '') - Date.parse(a.effectiveDateTime ?? ''))[0]!;
const day = (o: Observation) => o.effectiveDateTime!.slice(0, 10);
const text = (o: MedicationRequest) => `${o.medicationCodeableConcept?.text ?? ''} ${(o.medicationCodeableConcept?.coding ?? []).map((c) => c.display).join(' ')}`;

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const problems = (await http.search<Condition>('Condition', { patient, 'clinical-status': 'active' })).map((c) => c.code?.text ?? '');
  const meds = (await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' })).filter((o) => o.status === 'active');
  const egfr = latest(await http.search<Observation>('Observation', { patient, code: `http://loinc.org|33914-3,http://loinc.org|62238-1,${FS}|EGFR` }));
  const uacr = latest(await http.search<Observation>('Observation', { patient, code: `http://loinc.org|14959-1,${FS}|UACR` }));
  const k = latest(await http.search<Observation>('Observation', { patient, code: `http://loinc.org|2823-3,${FS}|K` }));
  const on = meds.find((o) => /gliflozin|jardiance|farxiga|invokana/i.test(text(o)));
  const raas = meds.filter((o) => /pril\b|sartan/i.test(text(o)));
  const ckd = problems.find((p) => /chronic kidney disease/i.test(p)) ?? 'Chronic kidney disease';
  let plan: string;
  let answer: string;
  if (on) {
    plan = `Continue ${on.medicationCodeableConcept?.text}.`;
    answer = `Yes - already on ${on.medicationCodeableConcept?.text}; continue it.`;
  } else if (problems.some((p) => /type 1 diabetes/i.test(p))) {
    plan = 'Do not start an SGLT2 inhibitor: type 1 diabetes (risk of ketoacidosis).';
    answer = 'No. I would not start an SGLT2 inhibitor in type 1 diabetes.';
  } else if (egfr.valueQuantity!.value! < 20) {
    plan = `Do not start an SGLT2 inhibitor: eGFR ${egfr.valueQuantity!.value} is under 20.`;
    answer = 'No - I would not start an SGLT2 inhibitor with an eGFR under 20.';
  } else {
    const rxnorm = 'http://www.nlm.nih.gov/research/umls/rxnorm';
    const found = await http.request<ValueSet>('GET', `ValueSet/$expand?${new URLSearchParams({ url: `${rxnorm}?fhir_vs`, filter: 'dapagliflozin 10 MG Oral Tablet', count: '10' })}`);
    const scd = found.expansion?.contains?.find((c) => c.display === 'dapagliflozin 10 MG Oral Tablet');
    if (!scd?.code) throw new Error(`RxNorm has no dapagliflozin 10 MG Oral Tablet: ${JSON.stringify(found.expansion?.contains ?? [])}`);
    await http.create<MedicationRequest>({
      resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      medicationCodeableConcept: { coding: [{ system: rxnorm, code: scd.code, display: scd.display }] },
      dosageInstruction: [{ text: 'Take 1 tablet by mouth once daily', timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd' } }, doseAndRate: [{ doseQuantity: { value: 1, unit: 'tablet' } }] }],
    });
    plan = 'Started dapagliflozin 10 mg once daily.';
    answer = 'Yes: started dapagliflozin 10 mg daily.';
  }
  await http.create({
    resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` },
    code: { coding: [{ system: 'http://loinc.org', code: '9318-7', display: 'Albumin/Creatinine [Mass Ratio] in Urine' }] },
    occurrenceDateTime: new Date(Date.parse(now) + 120 * 86400_000).toISOString(),
  });
  const note = [
    `${ckd}. eGFR ${egfr.valueQuantity!.value} mL/min/1.73m2 on ${day(egfr)}; urine albumin/creatinine ratio ${uacr.valueQuantity!.value} mg/g on ${day(uacr)}; potassium ${k.valueQuantity!.value} mmol/L on ${day(k)}.`,
    `On ${raas.map((o) => o.medicationCodeableConcept?.text).join(', ')}; continue it.`,
    plan,
    'Repeat urine albumin/creatinine ratio in 4 months.',
  ].join('\n');
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } }] });
  await submit(`${answer} UACR ordered.`);
}
