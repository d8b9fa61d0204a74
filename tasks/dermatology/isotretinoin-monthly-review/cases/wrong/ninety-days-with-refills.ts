// Decides right, but writes the renewal as a 90-day supply with refills, which iPLEDGE forbids. Reads all results in
// one search and picks the newest of each kind.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation, Patient } from '@medplum/fhirtypes';

export const description = 'renewal for 90 days with 2 refills';
export const catches = ['renewal_decision'];
export const mustFail = 'some';

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const [p, meds, results] = await Promise.all([
    http.request<Patient>('GET', `Patient/${patient}`),
    http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' }),
    http.search<Observation>('Observation', { patient, _count: '300' }),
  ]);
  const newest = (code: string) => results.filter((o) => o.code?.coding?.some((c) => c.code === code)).sort((a, b) => b.effectiveDateTime!.localeCompare(a.effectiveDateTime!))[0];
  const iso = meds.find((o) => /isotretinoin/i.test(o.medicationCodeableConcept?.text ?? ''))!;
  const ageDays = (o?: Observation) => (o ? (Date.parse(now) - Date.parse(o.effectiveDateTime!)) / 86_400_000 : Infinity);
  const needsIpledge = p.gender === 'female';
  const blocked = needsIpledge && (ageDays(newest('2106-3')) > 7 || (newest('CONTRACEPTION')?.component ?? []).length < 2);
  const subject = { reference: `Patient/${patient}` };
  const doxy = meds.filter((o) => o.status === 'active' && /doxycycline/i.test(o.medicationCodeableConcept?.text ?? ''));
  for (const o of doxy) await http.request('PUT', `MedicationRequest/${o.id}`, { ...o, status: 'stopped' });
  if (needsIpledge && ageDays(newest('2106-3')) > 7) await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject, authoredOn: now, code: { text: 'hCG, urine' } });
  if (!blocked) await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject, authoredOn: now, medicationCodeableConcept: iso.medicationCodeableConcept,
    dosageInstruction: iso.dosageInstruction, dispenseRequest: { numberOfRepeatsAllowed: 2, expectedSupplyDuration: { value: 90, unit: 'days' } } });
  const text = blocked ? 'Held the isotretinoin: iPLEDGE pregnancy test or contraception requirement not met.' : `Renewed isotretinoin (90 days, 2 refills).${doxy.length ? ' Doxycycline stopped.' : ''}`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  await submit(text);
}
