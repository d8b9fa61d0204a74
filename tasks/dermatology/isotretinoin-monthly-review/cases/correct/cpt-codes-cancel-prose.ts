// Coded throughout: the renewal under the local formulary code with a 30-day validity and quantity, a urine
// pregnancy test by CPT 81025, the tetracycline cancelled by a PUT; reads weights and PHQ-9; prose answer.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, MedicationRequest, Observation, Patient } from '@medplum/fhirtypes';

export const description = 'formulary-coded renewal; CPT 81025 pregnancy test; doxycycline cancelled by PUT; prose';
const DAY = 86_400_000;

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const p = await http.request<Patient>('GET', `Patient/${patient}`);
  const conditions = await http.search<Condition>('Condition', { patient });
  const active = (await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' })).filter((o) => o.status === 'active');
  const all = await http.search<MedicationRequest>('MedicationRequest', { patient, code: 'http://ehr-gym.example/fhir/CodeSystem/formulary|isotretinoin' });
  const current = all.filter((o) => o.status === 'active')[0];
  const obs = await http.search<Observation>('Observation', { patient, _count: '200', _sort: '-date' });
  const first = (code: string) => obs.find((o) => o.code?.coding?.some((c) => c.code === code));
  const [hcg, contra] = [first('2106-3'), first('CONTRACEPTION')];
  for (const c of ['2571-8', '1742-6', '29463-7']) first(c);
  const age = (Date.parse(now) - Date.parse(p.birthDate!)) / (365.25 * DAY);
  const canConceive = p.gender === 'female' && age >= 12 && age <= 50 && !conditions.some((c) => /hysterectomy|menopaus/i.test(c.code?.text ?? ''));
  const missing: string[] = [];
  if (canConceive && (!hcg || (Date.parse(now) - Date.parse(hcg.effectiveDateTime!)) > 7 * DAY || !/negative/i.test(JSON.stringify(hcg.valueCodeableConcept)))) missing.push('a pregnancy test within 7 days');
  if (canConceive && (contra?.component ?? []).length < 2) missing.push('two forms of contraception (only one documented)');
  const subject = { reference: `Patient/${patient}` };
  const phq = first('44261-6')?.valueQuantity?.value ?? 0;
  if (phq >= 15) {
    missing.push(`a mental-health evaluation first (PHQ-9 ${phq}, depression on isotretinoin)`);
    await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject, authoredOn: now, priority: 'urgent', code: { coding: [{ system: 'http://snomed.info/sct', code: '3457005', display: 'Patient referral' }] },
      performerType: { coding: [{ system: 'http://snomed.info/sct', code: '394587001', display: 'Psychiatry' }] } });
  }
  const stopped: string[] = [];
  for (const o of active.filter((x) => /doxycycline|minocycline|tetracycline|vitamin a/i.test(JSON.stringify(x.medicationCodeableConcept)))) {
    await http.request('PUT', `MedicationRequest/${o.id}`, { ...o, status: 'cancelled' });
    stopped.push(o.medicationCodeableConcept!.text!);
  }
  if (missing.some((m) => m.startsWith('a pregnancy'))) {
    await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject, authoredOn: now, code: { coding: [{ system: 'http://www.ama-assn.org/go/cpt', code: '81025', display: 'Urine pregnancy test' }] } });
  }
  if (missing.length === 0) {
    await http.create({ ...current, id: undefined, meta: undefined, authoredOn: now, status: 'active',
      dispenseRequest: { numberOfRepeatsAllowed: 0, quantity: current.dispenseRequest?.quantity, validityPeriod: { start: now.slice(0, 10) }, expectedSupplyDuration: { value: 30, unit: 'd', system: 'http://unitsofmeasure.org', code: 'd' } } });
  }
  const text = missing.length ? `I did not renew the isotretinoin yet - missing ${missing.join(' and ')}.` : `Everything is in place, so I renewed isotretinoin for another 30 days.`;
  const extra = stopped.length ? ` I stopped ${stopped.join(', ')}: a tetracycline must not be combined with isotretinoin (pseudotumor cerebri).` : '';
  await http.create({ resourceType: 'DocumentReference', status: 'current', subject, date: now, content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text + extra).toString('base64') } }] });
  await submit(text + extra);
}
