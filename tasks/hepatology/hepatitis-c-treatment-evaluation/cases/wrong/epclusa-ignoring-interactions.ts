// Right work-up and referral decisions, but always sofosbuvir/velpatasvir: with amiodarone (bradycardia) and with the
// PPI left as it is.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, DocumentReference, MedicationRequest, Observation, Patient } from '@medplum/fhirtypes';

export const description = 'sofosbuvir/velpatasvir regardless of amiodarone or a PPI';
export const catches = ['regimen_safety'];
export const mustFail = 'some';
const L = 'http://loinc.org';
interface Chart { fib4: number; age: number; female: boolean; rna: boolean; hbsag: boolean; decompensated: boolean; meds: MedicationRequest[]; text: (o: MedicationRequest) => string }
/** Reads what a hepatitis C readiness review needs, newest result first. */
async function chart(http: CaseContext['http'], patient: string, now: string): Promise<Chart> {
  const latest = async (codes: string) => (await http.search<Observation>('Observation', { patient, code: codes.split(',').map((c) => `${L}|${c}`).join(','), _sort: '-date' }))[0];
  const p = await http.request<Patient>('GET', `Patient/${patient}`);
  const [ast, alt, plt, alb, tbil, rna, hbs] = await Promise.all(['1920-8', '1742-6', '777-3', '1751-7', '1975-2', '11011-4', '5196-1'].map(latest));
  await latest('13955-0');
  const conditions = await http.search<Condition>('Condition', { patient });
  const meds = (await http.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' })).filter((o) => o.status === 'active');
  const age = Math.floor((Date.parse(now) - Date.parse(p.birthDate!)) / 31556952000);
  const v = (o?: Observation) => o?.valueQuantity?.value ?? NaN;
  const fib4 = Math.round(((age * v(ast)) / (v(plt) * Math.sqrt(v(alt)))) * 100) / 100;
  const decompensated = conditions.some((c) => /ascites|encephalopathy|varic/i.test(c.code?.text ?? '')) || v(tbil) > 2 || v(alb) <= 3.5;
  const text = (o: MedicationRequest) => `${o.medicationCodeableConcept?.text ?? ''} ${(o.medicationCodeableConcept?.coding ?? []).map((c) => c.display).join(' ')}`.toLowerCase();
  return { fib4, age, female: p.gender === 'female', rna: !!rna, hbsag: !!hbs, decompensated, meds, text };
}
const note = (patient: string, now: string, text: string): DocumentReference => ({ resourceType: 'DocumentReference', status: 'current', subject: { reference: `Patient/${patient}` }, date: now,
  content: [{ attachment: { contentType: 'text/plain', data: Buffer.from(text).toString('base64') } }] });

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const c = await chart(http, patient, now);
  let plan: string;
  if (c.decompensated) {
    await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now, code: { text: 'Referral to hepatology' } });
    plan = 'Decompensated cirrhosis: referral to hepatology.';
  } else if (!c.rna || !c.hbsag) {
    await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now, code: { text: 'HCV RNA quantitative' } });
    await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now, code: { text: 'HBsAg' } });
    plan = 'Ordered HCV RNA and HBsAg.';
  } else {
    await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      medicationCodeableConcept: { text: 'sofosbuvir 400 mg / velpatasvir 100 mg tablet' }, dosageInstruction: [{ text: '1 tablet daily for 12 weeks' }] });
    plan = 'Sofosbuvir/velpatasvir 12 weeks; SVR12 after.';
  }
  await http.create(note(patient, now, `FIB-4 ${c.fib4}. ${plan}`));
  await submit(`FIB-4 ${c.fib4}. ${plan}`);
}
