// Lowers an excessive dose to a weekly-averaged schedule (400 mg five days a week), stops the old order with a JSON
// Patch, and orders SD-OCT and automated fields as two CPT-coded tests when screening is due; prose answer.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, DocumentReference, MedicationRequest, Observation, Procedure } from '@medplum/fhirtypes';

export const description = 'weekly-averaged lower dose (400 mg x5/week); CPT 92134 + 92083 orders; JSON Patch stop';
const Y = 31_557_600_000;
const newest = (list: Observation[]) => list.filter((o) => o.valueQuantity?.value !== undefined).sort((a, b) => Date.parse(b.effectiveDateTime!) - Date.parse(a.effectiveDateTime!))[0];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient });
  const hcq = meds.filter((o) => /hydroxychloroquine/i.test(JSON.stringify(o.medicationCodeableConcept)));
  const active = hcq.find((o) => o.status === 'active')!;
  const others = meds.filter((o) => o.status === 'active' && o !== active);
  const weight = newest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|29463-7' }))!;
  const egfr = newest(await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|98979-8' }));
  const problems = await http.search<Condition>('Condition', { patient });
  const exams = await http.search<Procedure>('Procedure', { patient });
  const kg = weight.valueQuantity!.value!;
  const d = active.dosageInstruction![0];
  const mgDay = d.doseAndRate![0].doseQuantity!.value! * (d.timing!.repeat!.frequency ?? 1);
  const perKg = mgDay / kg;
  const years = (Date.parse(now) - Math.min(...hcq.map((o) => Date.parse(o.authoredOn!)))) / Y;
  const risk = perKg > 5 || (egfr?.valueQuantity?.value ?? 100) < 60 || others.some((o) => /tamoxifen/i.test(o.medicationCodeableConcept?.text ?? ''))
    || problems.some((c) => /macul/i.test(c.code?.text ?? ''));
  const last = Math.max(...exams.filter((p) => /9213|9208/.test(JSON.stringify(p.code))).map((p) => Date.parse(p.performedDateTime!)));
  const due = (years >= 5 || risk) && (Date.parse(now) - last) / (Y / 12) >= 12;
  const subject = { reference: `Patient/${patient}` };
  const plan: string[] = [];
  if (perKg > 5) {
    await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject, authoredOn: now,
      medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '5521' }], text: 'hydroxychloroquine sulfate 200 mg tab' },
      dosageInstruction: [{ text: '400 mg (2 tabs) by mouth Mon-Fri, none Sat/Sun', timing: { repeat: { frequency: 5, period: 1, periodUnit: 'wk' } }, doseAndRate: [{ doseQuantity: { value: 400, unit: 'mg' } }] }] });
    await http.request('PATCH', `MedicationRequest/${active.id}`, [{ op: 'replace', path: '/status', value: 'stopped' }]);
    plan.push(`reduced to 400 mg 5 days/week (${((400 * 5) / 7 / kg).toFixed(1)} mg/kg/day averaged)`);
  } else plan.push('dose unchanged');
  if (due) {
    for (const [code, display] of [['92134', 'SD-OCT retina'], ['92083', 'Visual field exam, extended (10-2)']]) {
      await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject, authoredOn: now, code: { coding: [{ system: 'http://www.ama-assn.org/go/cpt', code, display }] } });
    }
    plan.push('annual HCQ eye screening is due - SD-OCT and 10-2 fields ordered');
  } else plan.push('retinal screening not due yet');
  const text = `HCQ ${mgDay} mg/day at ${kg} kg = ${perKg.toFixed(2)} mg/kg/day; on it ${years.toFixed(1)} yrs. Plan: ${plan.join('; ')}.`;
  const note: DocumentReference = { resourceType: 'DocumentReference', status: 'current', subject, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] };
  await http.create(note);
  await submit(text);
}
