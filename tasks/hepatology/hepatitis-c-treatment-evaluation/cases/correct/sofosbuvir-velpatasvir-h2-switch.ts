// Chooses sofosbuvir/velpatasvir (Epclusa, written with its strength) wherever it is compatible: the PPI is stopped and
// replaced by famotidine 20 mg twice daily; on amiodarone it uses glecaprevir/pibrentasvir (Mavyret). Work-up by CPT
// codes, referral to a liver transplant center as a ServiceRequest; JSON answer.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, DocumentReference, MedicationRequest, Observation, Patient } from '@medplum/fhirtypes';

export const description = 'Epclusa with the PPI switched to famotidine (Mavyret on amiodarone); CPT work-up; JSON answer';
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
  const sr = (code: { system: string; code: string; display: string }) => http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now, code: { coding: [code] } });
  let plan: string;
  if (c.decompensated) {
    await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      category: [{ text: 'Referral' }], code: { text: 'Referral to liver transplant center' }, reasonCode: [{ text: 'HCV with decompensated cirrhosis' }] });
    plan = 'Decompensated cirrhosis - not for simplified treatment; referred to the liver transplant center, no DAA started.';
  } else if (!c.rna || !c.hbsag) {
    if (!c.rna) await sr({ system: 'http://www.ama-assn.org/go/cpt', code: '87522', display: 'HCV quantification' });
    if (!c.hbsag) await sr({ system: 'http://www.ama-assn.org/go/cpt', code: '87340', display: 'Hepatitis B surface antigen' });
    plan = 'Ordered HCV RNA (viral load) and HBsAg before treatment; no DAA until viremia and HBV status are known.';
  } else if (c.meds.some((o) => c.text(o).includes('amiodarone'))) {
    await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      medicationCodeableConcept: { text: 'Mavyret (glecaprevir 100 mg / pibrentasvir 40 mg) tablet' }, dosageInstruction: [{ text: '3 tablets by mouth once daily with food for 8 weeks' }] });
    plan = 'Mavyret (glecaprevir/pibrentasvir) 3 tablets daily for 8 weeks - no sofosbuvir with amiodarone. SVR12 HCV RNA 12 weeks after.';
  } else {
    for (const o of c.meds.filter((m) => /prazole/.test(c.text(m)))) await http.request('PATCH', `MedicationRequest/${o.id}`, [{ op: 'replace', path: '/status', value: 'stopped' }]);
    if (c.meds.some((m) => /prazole/.test(c.text(m)))) {
      await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
        medicationCodeableConcept: { text: 'famotidine 20 mg tablet' }, dosageInstruction: [{ text: '20 mg by mouth twice daily' }] });
    }
    await http.create({ resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      medicationCodeableConcept: { text: 'Epclusa (sofosbuvir 400 mg / velpatasvir 100 mg) tablet' }, dosageInstruction: [{ text: '1 tablet by mouth once daily for 12 weeks' }] });
    plan = 'Epclusa (sofosbuvir/velpatasvir) daily for 12 weeks; PPI switched to famotidine. SVR12 HCV RNA 12 weeks after the end.';
  }
  await http.create(note(patient, now, `HCV readiness. FIB-4 ${c.fib4}. ${plan}`));
  await submit(JSON.stringify({ fib4: c.fib4, plan }));
}
