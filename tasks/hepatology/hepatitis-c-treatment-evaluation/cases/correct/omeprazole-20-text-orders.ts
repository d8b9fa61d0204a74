// Sofosbuvir/velpatasvir with the PPI cut to omeprazole 20 mg (the label's allowance), glecaprevir/pibrentasvir on
// amiodarone; work-up as text-only orders; referral to hepatology by SNOMED performer type; prose answer.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, DocumentReference, MedicationRequest, Observation, Patient } from '@medplum/fhirtypes';

export const description = 'S/V with omeprazole 20 mg; text-only lab orders; hepatology referral; prose';
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
  const text = (t: string) => http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now, code: { text: t } });
  let plan: string;
  if (c.decompensated) {
    await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      code: { text: 'Hepatology consult' }, performerType: { coding: [{ system: 'http://snomed.info/sct', code: '394582007', display: 'Hepatology' }] } });
    plan = 'He has decompensated cirrhosis (ascites), so he is not a simplified-treatment candidate: hepatology consult placed, no DAA from primary care.';
  } else if (!c.rna || !c.hbsag) {
    if (!c.rna) await text('HCV RNA quantitative PCR');
    if (!c.hbsag) await text('Hepatitis B surface antigen');
    plan = 'Antibody alone does not confirm infection: HCV RNA PCR and hepatitis B surface antigen ordered first.';
  } else if (c.meds.some((o) => c.text(o).includes('amiodarone'))) {
    await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      medicationCodeableConcept: { text: 'glecaprevir 100 MG / pibrentasvir 40 MG Oral Tablet' },
      dosageInstruction: [{ text: 'three tablets once daily with food', timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd' } }, doseAndRate: [{ doseQuantity: { value: 3, unit: 'tablet' } }] }] });
    plan = 'Glecaprevir/pibrentasvir 8 weeks (sofosbuvir is contraindicated with amiodarone); check SVR12 at 12 weeks after therapy.';
  } else {
    const ppis = c.meds.filter((m) => /prazole/.test(c.text(m)));
    for (const o of ppis) await http.request('PATCH', `MedicationRequest/${o.id}`, [{ op: 'replace', path: '/status', value: 'stopped' }]);
    if (ppis.length) await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '7646', display: 'omeprazole' }] },
      dosageInstruction: [{ text: '20 mg daily, 4 hours after Epclusa, with food', doseAndRate: [{ doseQuantity: { value: 20, unit: 'mg' } }], timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd' } } }] });
    await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      medicationCodeableConcept: { coding: [{ system: 'http://ehr-gym.example/fhir/CodeSystem/formulary', code: 'sofosbuvir' }, { system: 'http://ehr-gym.example/fhir/CodeSystem/formulary', code: 'velpatasvir' }], text: 'sofosbuvir 400 mg / velpatasvir 100 mg' },
      dosageInstruction: [{ text: '1 tablet daily x 12 weeks', timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd', boundsDuration: { value: 84, unit: 'd', code: 'd' } } } }] });
    plan = 'Sofosbuvir/velpatasvir daily for 12 weeks; PPI reduced to omeprazole 20 mg taken 4 h after. SVR12 viral load 12 weeks after completion.';
  }
  await http.create(note(patient, now, `Hepatitis C e-consult. FIB-4 = ${c.fib4}. ${plan}`));
  await submit(`FIB-4 is ${c.fib4}. ${plan}`);
}
