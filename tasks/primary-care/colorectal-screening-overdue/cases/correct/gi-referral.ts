// A physician whose clinic books screening colonoscopies through a gastroenterology referral (the order is the
// referral, with the reason on it), answering in JSON.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Observation, Patient, Procedure } from '@medplum/fhirtypes';

export const description = 'refers to GI for screening colonoscopy when due (referral with reason), JSON answer';

const INTERVAL_YEARS = [
  { codes: ['73761001', '444783004', '446521004'], years: 10, name: 'colonoscopy' },
  { codes: ['44441009'], years: 5, name: 'flexible sigmoidoscopy' },
  { codes: ['77353-1', '77354-9'], years: 3, name: 'stool DNA-FIT' },
  { codes: ['29771-3', '57905-2', '56490-6', '56491-4', '2335-8'], years: 1, name: 'FIT/FOBT' },
];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const person = await http.read<Patient>('Patient', patient);
  await http.search('Condition', { patient, 'clinical-status': 'active' });
  const procedures = await http.search<Procedure>('Procedure', { patient, status: 'completed' });
  const stool = await http.search<Observation>('Observation', { patient, code: 'http://loinc.org|29771-3,http://loinc.org|57905-2,http://loinc.org|56490-6,http://loinc.org|56491-4,http://loinc.org|2335-8,http://loinc.org|77353-1,http://loinc.org|77354-9' });
  const birth = new Date(person.birthDate!);
  const today = new Date(now);
  const age = today.getUTCFullYear() - birth.getUTCFullYear() - (today < new Date(Date.UTC(today.getUTCFullYear(), birth.getUTCMonth(), birth.getUTCDate())) ? 1 : 0);
  const covered = [...procedures.map((p) => ({ c: p.code, d: p.performedDateTime })), ...stool.filter((o) => o.status === 'final').map((o) => ({ c: o.code, d: o.effectiveDateTime }))]
    .some(({ c, d }) => {
      const rule = INTERVAL_YEARS.find((r) => c?.coding?.some((x) => r.codes.includes(x.code ?? '')));
      return rule && d && Date.parse(d) + rule.years * 365.25 * 86_400_000 > today.getTime();
    });
  const due = age >= 45 && age <= 75 && !covered;
  if (due) {
    await http.create({
      resourceType: 'ServiceRequest', status: 'active', intent: 'order', priority: 'routine',
      category: [{ coding: [{ system: 'http://snomed.info/sct', code: '3457005', display: 'Patient referral' }] }],
      code: { text: 'Referral to gastroenterology' },
      performerType: { coding: [{ system: 'http://snomed.info/sct', code: '394584008', display: 'Gastroenterology' }] },
      reasonCode: [{ text: 'Average-risk colorectal cancer screening - screening colonoscopy' }],
      subject: { reference: `Patient/${patient}` }, authoredOn: now,
    });
  }
  await submit(JSON.stringify({ due, ordered: due ? 'GI referral for screening colonoscopy' : null }));
}
