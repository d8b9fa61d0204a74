// Brand and text only: an excessive dose becomes "Plaquenil 200 mg daily" (no code) and the old order is cancelled by
// a PUT; due screening is a text-only ophthalmology referral; the answer is JSON.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, MedicationRequest, Observation, Procedure } from '@medplum/fhirtypes';

export const description = 'Plaquenil 200 mg daily by text; old order cancelled by PUT; text ophthalmology referral; JSON answer';
const DAY = 86_400_000;

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const all = await http.search<MedicationRequest>('MedicationRequest', { patient, _count: '100' });
  const hcq = all.filter((o) => (o.medicationCodeableConcept?.coding ?? []).some((c) => c.code === '5521'));
  const current = hcq.find((o) => o.status === 'active')!;
  const tamoxifen = all.some((o) => o.status === 'active' && /tamoxifen/i.test(JSON.stringify(o.medicationCodeableConcept)));
  const weights = await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|29463-7', _sort: '-date' });
  const gfrs = await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|98979-8', _sort: '-date' });
  const kg = weights[0].valueQuantity!.value!;
  const mgDay = current.dosageInstruction![0].doseAndRate![0].doseQuantity!.value! * (current.dosageInstruction![0].timing!.repeat!.frequency ?? 1);
  const mgkg = Math.round((mgDay / kg) * 100) / 100;
  const startedDays = (Date.parse(now) - Math.min(...hcq.map((o) => Date.parse(o.authoredOn!)))) / DAY;
  const exams = await http.search<Procedure>('Procedure', { patient, _sort: '-date' });
  const lastDays = exams[0] ? (Date.parse(now) - Date.parse(exams[0].performedDateTime!)) / DAY : Infinity;
  const macular = (await http.search<Condition>('Condition', { patient })).some((c) => /macular|maculopathy/i.test(c.code?.text ?? ''));
  const majorRisk = mgkg > 5 || tamoxifen || macular || (gfrs[0]?.valueQuantity?.value ?? 99) < 60;
  const due = !exams[0] || ((startedDays > 5 * 365 || majorRisk) && lastDays > 365);
  const subject = { reference: `Patient/${patient}` };
  let dose = `continue ${mgDay} mg/day`;
  if (mgkg > 5) {
    await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject, authoredOn: now,
      medicationCodeableConcept: { text: 'Plaquenil 200 mg tablet' }, dosageInstruction: [{ text: '1 tablet (200 mg) PO daily' }] });
    await http.request('PUT', `MedicationRequest/${current.id}`, { ...current, status: 'cancelled' });
    dose = `decrease to Plaquenil 200 mg daily (${(200 / kg).toFixed(2)} mg/kg)`;
  }
  if (due) {
    await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject, authoredOn: now,
      code: { text: 'Referral to Ophthalmology' }, performerType: { text: 'Ophthalmology' }, reasonCode: [{ text: 'HCQ retinopathy screening (annual)' }] });
  }
  const screening = due ? 'HCQ retinopathy screening is due: referred to ophthalmology' : 'screening is up to date, not due this year';
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject, date: now,
    content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(`Hydroxychloroquine review. Weight-based dose ${mgkg} mg/kg/day. ${dose}. Eye: ${screening}.`).toString('base64') } }] });
  await submit({ mgPerKg: mgkg, plan: `${dose}; ${screening}` });
}
