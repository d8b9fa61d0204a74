// Renews by brand as free text (Absorica), orders a serum beta-hCG by text when the last test is out of the 7-day
// window, stops doxycycline with a JSON Patch; JSON answer.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { MedicationRequest, Observation, Patient } from '@medplum/fhirtypes';

export const description = 'Absorica by text; serum beta-hCG by text; doxycycline stopped by PATCH; JSON answer';
const DAY = 86_400_000;

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const p = await http.request<Patient>('GET', `Patient/${patient}`);
  const meds = await http.search<MedicationRequest>('MedicationRequest', { patient });
  const iso = meds.filter((o) => /isotretinoin/i.test(JSON.stringify(o.medicationCodeableConcept))).sort((a, b) => b.authoredOn!.localeCompare(a.authoredOn!));
  const current = iso.find((o) => o.status === 'active')!;
  const doxy = meds.filter((o) => o.status === 'active' && /doxycycline|minocycline/i.test(o.medicationCodeableConcept?.text ?? ''));
  const newest = async (code: string) => (await http.search<Observation>('Observation', { patient, code, _sort: '-date' }))[0];
  const hcg = await newest('http://loinc.org|2106-3,http://loinc.org|2118-8');
  const contra = await newest('http://ehr-gym.example/fhir/CodeSystem/flowsheet|CONTRACEPTION');
  await newest('http://loinc.org|2571-8');
  await newest('http://loinc.org|1742-6');
  const phq = (await newest('http://loinc.org|44261-6'))?.valueQuantity?.value ?? 0;
  const female = p.gender === 'female' && (Date.parse(now) - Date.parse(p.birthDate!)) / (365.25 * DAY) < 50;
  const testOk = !female || (!!hcg && /negative/i.test(hcg.valueCodeableConcept?.text ?? '') && (Date.parse(now) - Date.parse(hcg.effectiveDateTime!)) / DAY <= 7);
  const contraOk = !female || (contra?.component?.length ?? 0) >= 2;
  const subject = { reference: `Patient/${patient}` };
  const reasons: string[] = [];
  for (const d of doxy) {
    await http.request('PATCH', `MedicationRequest/${d.id}`, [{ op: 'replace', path: '/status', value: 'stopped' }]);
    reasons.push(`stopped ${d.medicationCodeableConcept?.text} (tetracycline + isotretinoin = pseudotumor cerebri risk)`);
  }
  if (!testOk) {
    await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject, authoredOn: now, code: { text: 'Serum beta-hCG (quantitative)' } });
    reasons.push('pregnancy test is more than 7 days old - new serum hCG ordered');
  }
  if (!contraOk) reasons.push('only one form of contraception documented this month; iPLEDGE needs two');
  if (phq >= 15) {
    await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject, authoredOn: now, code: { text: 'Referral to behavioral health' },
      performerType: { text: 'Behavioral health' }, reasonCode: [{ text: `PHQ-9 ${phq} on isotretinoin` }] });
    reasons.push(`PHQ-9 ${phq}: depressive symptoms - isotretinoin held, behavioral health referral`);
  }
  const renewed = testOk && contraOk && phq < 15;
  if (renewed) {
    const d = current.dosageInstruction![0];
    await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject, authoredOn: now,
      medicationCodeableConcept: { text: `Absorica ${d.doseAndRate![0].doseQuantity!.value} mg capsule` }, dosageInstruction: [{ text: d.text }],
      dispenseRequest: { numberOfRepeatsAllowed: 0, expectedSupplyDuration: { value: 30, unit: 'days' } } });
  }
  const summary = `${renewed ? 'Renewed for 30 days' : 'Not renewed'}: ${reasons.join('; ') || 'iPLEDGE and labs in order'}.`;
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(`Isotretinoin check. ${summary}`).toString('base64') } }] });
  await submit({ renewed, reason: summary });
}
