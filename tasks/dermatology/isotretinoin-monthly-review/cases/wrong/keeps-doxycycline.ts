// Gets iPLEDGE right but leaves the tetracycline running beside isotretinoin (pseudotumor cerebri).
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation, Patient } from '@medplum/fhirtypes';

export const description = 'correct iPLEDGE logic; doxycycline left active';
export const catches = ['interactions_stopped', 'review_note'];
export const mustFail = 'some';
const DAY = 86_400_000;

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const p = await http.request<Patient>('GET', `Patient/${patient}`);
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient });
  const current = meds.find((o) => o.status === 'active' && /isotretinoin/i.test(o.medicationCodeableConcept?.text ?? ''))!;
  const latest = async (code: string) => (await http.search<Observation>('Observation', { patient, code, _sort: '-date' }))[0];
  const test = await latest('http://loinc.org|2106-3');
  const contra = await latest('http://ehr-gym.example/fhir/CodeSystem/flowsheet|CONTRACEPTION');
  await latest('http://loinc.org|2571-8'); await latest('http://loinc.org|1742-6');
  const female = p.gender === 'female';
  const fresh = !female || (!!test && Date.parse(now) - Date.parse(test.effectiveDateTime!) <= 7 * DAY);
  const forms = !female || (contra?.component?.length ?? 0) >= 2;
  const subject = { reference: `Patient/${patient}` };
  if (!fresh) await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject, authoredOn: now, code: { text: 'urine pregnancy test' } });
  if (fresh && forms) await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject, authoredOn: now, medicationCodeableConcept: current.medicationCodeableConcept,
    dosageInstruction: current.dosageInstruction, dispenseRequest: { numberOfRepeatsAllowed: 0, expectedSupplyDuration: { value: 30, unit: 'days' } } });
  const text = fresh && forms ? 'Requirements met; renewed isotretinoin for 30 days.' : `Not renewed: ${!fresh ? 'pregnancy test out of window (repeat ordered)' : 'only one contraception form documented'}.`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  await submit(text);
}
