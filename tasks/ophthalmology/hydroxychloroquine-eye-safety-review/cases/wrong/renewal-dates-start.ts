// Dates the start of use from the active order, a renewal, and screens only by duration (ignores renal function and
// tamoxifen): misses the patient on it for 7 years and the one with major risk factors.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation, Procedure } from '@medplum/fhirtypes';

export const description = 'start of use from the renewal order; duration-only schedule';
export const catches = ['screening_action', 'review_note'];
export const mustFail = 'some';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const active = (await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' })).filter((o) => o.status === 'active');
  const hcq = active.find((o) => /hydroxychloroquine/i.test(o.medicationCodeableConcept?.text ?? ''))!;
  const kg = (await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|29463-7', _sort: '-date' }))[0].valueQuantity!.value!;
  await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|98979-8', _sort: '-date' });
  const exams = await http.search<Procedure>('Procedure', { patient, _sort: '-date' });
  for (const e of exams.slice(0, 2)) await http.request('GET', `Procedure/${e.id}`);
  const d = hcq.dosageInstruction![0];
  const mg = d.doseAndRate![0].doseQuantity!.value! * (d.timing!.repeat!.frequency ?? 1);
  const years = (Date.parse(now) - Date.parse(hcq.authoredOn!)) / 31_557_600_000;
  const subject = { reference: `Patient/${patient}` };
  if (mg / kg > 5) {
    await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject, authoredOn: now, medicationCodeableConcept: { text: 'hydroxychloroquine 200 mg tablet' }, dosageInstruction: [{ text: '200 mg once daily' }] });
    await http.request('PATCH', `MedicationRequest/${hcq.id}`, [{ op: 'replace', path: '/status', value: 'stopped' }]);
  }
  const due = years >= 5;
  if (due) await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject, authoredOn: now, code: { coding: [{ system: 'http://www.ama-assn.org/go/cpt', code: '92134' }] } });
  const text = `${(mg / kg).toFixed(2)} mg/kg/day; ${years.toFixed(1)} years on therapy. ${mg / kg > 5 ? 'Lowered to 200 mg daily.' : 'No dose change.'} ${due ? 'Screening due: SD-OCT ordered.' : 'Screening not due before 5 years of use.'}`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  await submit(text);
}
