// Changes an excessive dose in place (a PUT of the same order at 300 mg daily, the 300 mg tablet) rather than a new
// order; due screening is a text-only "SD-OCT + Humphrey 10-2" order; reads the weight in the order the server gives.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, MedicationRequest, Observation, Procedure } from '@medplum/fhirtypes';

export const description = 'dose edited in place to 300 mg daily; SD-OCT + fields as text; prose note';
const Y = 365.25 * 86_400_000;

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const orders = await http.search<MedicationRequest>('MedicationRequest', { patient });
  const isHcq = (o: MedicationRequest) => /hydroxychloroquine|5521/i.test(JSON.stringify(o.medicationCodeableConcept));
  const active = orders.filter((o) => o.status === 'active');
  const hcq = await http.request<MedicationRequest>('GET', `MedicationRequest/${active.find(isHcq)!.id}`);
  const start = Math.min(...orders.filter(isHcq).map((o) => Date.parse(o.authoredOn!)));
  const obs = await http.search<Observation>('Observation', { patient, category: 'vital-signs,laboratory', _count: '200' });
  const latest = (code: string) => obs.filter((o) => o.code?.coding?.some((c) => c.code === code)).sort((a, b) => b.effectiveDateTime!.localeCompare(a.effectiveDateTime!))[0];
  const kg = latest('29463-7').valueQuantity!.value!;
  const gfr = latest('98979-8')?.valueQuantity?.value;
  const cond = await http.search<Condition>('Condition', { patient });
  const procs = (await http.search<Procedure>('Procedure', { patient })).sort((a, b) => b.performedDateTime!.localeCompare(a.performedDateTime!));
  const dose = hcq.dosageInstruction![0];
  const mg = dose.doseAndRate![0].doseQuantity!.value! * (dose.timing?.repeat?.frequency ?? 1);
  const perKg = mg / kg;
  const years = (Date.parse(now) - start) / Y;
  const risks = [perKg > 5 && 'dose > 5 mg/kg', gfr !== undefined && gfr < 60 && `eGFR ${gfr}`, active.some((o) => /tamoxifen/i.test(o.medicationCodeableConcept?.text ?? '')) && 'tamoxifen',
    cond.some((c) => /macular|maculopathy/i.test(c.code?.text ?? '')) && 'maculopathy'].filter(Boolean);
  const monthsSince = procs[0] ? (Date.parse(now) - Date.parse(procs[0].performedDateTime!)) / (Y / 12) : Infinity;
  const due = !procs[0] || ((years > 5 || risks.length > 0) && monthsSince >= 12);
  const subject = { reference: `Patient/${patient}` };
  if (perKg > 5) {
    await http.request('PUT', `MedicationRequest/${hcq.id}`, { ...hcq, medicationCodeableConcept: { text: 'hydroxychloroquine 300 mg tablet' },
      dosageInstruction: [{ text: '300 mg by mouth once a day', timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd' } }, doseAndRate: [{ doseQuantity: { value: 300, unit: 'mg' } }] }] });
  }
  if (due) await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject, authoredOn: now, code: { text: 'SD-OCT macula + Humphrey 10-2 visual fields (hydroxychloroquine)' } });
  const text = `${perKg.toFixed(2)} mg/kg/day (${mg} mg/day, ${kg} kg). Years on drug: ${years.toFixed(1)}. Risk factors: ${risks.join(', ') || 'none'}. `
    + `${perKg > 5 ? 'Dose changed to 300 mg daily. ' : 'Dose appropriate. '}${due ? 'Screening is overdue - SD-OCT and visual fields ordered.' : 'Retinal screening not needed now (last exam within schedule).'}`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  await submit(text);
}
