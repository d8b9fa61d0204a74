// Renews whenever the latest pregnancy test is negative, whatever its date, and never checks contraception: gives
// isotretinoin outside the iPLEDGE window and with a single contraceptive method.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';

export const description = 'a negative test of any date is enough; contraception not checked';
export const catches = ['renewal_decision', 'missing_items_ordered', 'answer_decision', 'review_note'];
export const mustFail = 'some';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient });
  const current = meds.find((o) => o.status === 'active' && /isotretinoin/i.test(o.medicationCodeableConcept?.text ?? ''))!;
  for (const o of meds.filter((x) => x.status === 'active' && /doxycycline/i.test(x.medicationCodeableConcept?.text ?? ''))) await http.request('PATCH', `MedicationRequest/${o.id}`, [{ op: 'replace', path: '/status', value: 'stopped' }]);
  const test = (await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|2106-3', _sort: '-date' }))[0];
  await http.search<Observation>('Observation', { patient, code: 'http://ehr-gym.example/fhir/CodeSystem/flowsheet|CONTRACEPTION' });
  await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|2571-8,http://loinc.org|1742-6' });
  const ok = !test || /negative/i.test(test.valueCodeableConcept?.text ?? '');
  const subject = { reference: `Patient/${patient}` };
  if (ok) await http.create({ ...current, id: undefined, meta: undefined, authoredOn: now });
  const text = ok ? 'Pregnancy test negative: renewed isotretinoin; stopped doxycycline if present.' : 'Pregnancy test not negative: not renewed.';
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  await submit(text);
}
