// Renews at a weight-based dose it computes itself (0.5 mg/kg/day rounded to capsules, a careful taper of the
// cumulative course), orders a serum hCG by LOINC 2118-8 when the test is stale, and stops the tetracycline as
// "completed"; reads the history order by order.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation, Patient } from '@medplum/fhirtypes';

export const description = 'renewal at ~0.5 mg/kg/day; serum hCG LOINC 2118-8; tetracycline completed';
const DAY = 86_400_000;

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const p = await http.request<Patient>('GET', `Patient/${patient}`);
  const list = await http.search<MedicationRequest>('MedicationRequest', { patient });
  const orders = await Promise.all(list.map((o) => http.request<MedicationRequest>('GET', `MedicationRequest/${o.id}`)));
  const obs = async (code: string) => (await http.search<Observation>('Observation', { patient, code })).sort((a, b) => b.effectiveDateTime!.localeCompare(a.effectiveDateTime!));
  const kg = (await obs('http://loinc.org|29463-7'))[0].valueQuantity!.value!;
  const tests = await obs('http://loinc.org|2106-3,http://loinc.org|2118-8');
  const contra = (await obs('http://ehr-gym.example/fhir/CodeSystem/flowsheet|CONTRACEPTION'))[0];
  await obs('http://loinc.org|2571-8,http://loinc.org|24331-1');
  await obs('http://loinc.org|1742-6');
  const phq = (await obs('http://loinc.org|44261-6'))[0]?.valueQuantity?.value ?? 0;
  const pregnancyCapable = p.gender === 'female';
  const stale = pregnancyCapable && (!tests[0] || Date.parse(now) - Date.parse(tests[0].effectiveDateTime!) > 7 * DAY);
  const oneForm = pregnancyCapable && (contra?.component?.length ?? 0) < 2;
  const subject = { reference: `Patient/${patient}` };
  const lines: string[] = [];
  for (const o of orders.filter((x) => x.status === 'active' && /cycline/i.test(x.medicationCodeableConcept?.text ?? ''))) {
    await http.request('PUT', `MedicationRequest/${o.id}`, { ...o, status: 'completed' });
    lines.push(`Doxycycline discontinued (pseudotumor cerebri risk with isotretinoin).`);
  }
  if (stale) {
    await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject, authoredOn: now, code: { coding: [{ system: 'http://loinc.org', code: '2118-8' }], text: 'hCG qualitative, serum' } });
    lines.push('Pregnancy test older than 7 days: repeat ordered; prescription on hold until negative.');
  }
  if (oneForm) lines.push('Only one contraceptive method documented this month: prescription on hold until two forms are in place.');
  if (phq >= 15) {
    await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject, authoredOn: now, code: { text: 'Psychiatry consult - depressive symptoms on isotretinoin' } });
    lines.push(`PHQ-9 ${phq}: depressive symptoms - prescription on hold, psychiatry consult requested.`);
  }
  if (!stale && !oneForm && phq < 15) {
    const mg = Math.max(20, Math.round((0.5 * kg) / 20) * 20);
    await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject, authoredOn: now,
      medicationCodeableConcept: { text: 'isotretinoin 20 mg capsule' },
      dosageInstruction: [{ text: `${mg} mg daily`, timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd' } }, doseAndRate: [{ doseQuantity: { value: mg, unit: 'mg' } }] }],
      dispenseRequest: { expectedSupplyDuration: { value: 30, unit: 'days' } } });
    lines.push(`Requirements met: renewed isotretinoin ${mg} mg/day (${(mg / kg).toFixed(2)} mg/kg) for 30 days.`);
  }
  const text = lines.join(' ');
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });
  await submit(text);
}
