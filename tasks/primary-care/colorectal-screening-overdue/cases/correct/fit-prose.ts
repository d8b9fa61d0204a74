// A family physician who reads the whole chart, knows every USPSTF interval, picks FIT for an average-risk patient
// (coded by LOINC, no category) and answers in a sentence instead of JSON.
import type { CaseContext } from '../../../../../contracts/case-http.ts';
import type { Condition, DiagnosticReport, Observation, Patient, Procedure } from '@medplum/fhirtypes';

export const description = 'reads age, problems, procedures, stool results; orders a FIT (LOINC, no category) when due; prose answer';

const YEARS: Record<string, number> = { '73761001': 10, '444783004': 10, '44441009': 5, '77353-1': 3, '77354-9': 3, '29771-3': 1, '57905-2': 1, '2335-8': 1, '14563-1': 1 };
const NAMES: Record<string, string> = { '73761001': 'colonoscopy', '444783004': 'colonoscopy', '44441009': 'flexible sigmoidoscopy', '77353-1': 'Cologuard', '77354-9': 'Cologuard', '29771-3': 'FIT', '57905-2': 'FIT', '2335-8': 'guaiac FOBT', '14563-1': 'guaiac FOBT' };

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  const person = await http.read<Patient>('Patient', patient);
  const problems = await http.search<Condition>('Condition', { patient });
  const procedures = await http.search<Procedure>('Procedure', { patient });
  const labs = await http.search<Observation>('Observation', { patient, _count: 200 });
  await http.search<DiagnosticReport>('DiagnosticReport', { patient });

  const age = Math.floor((Date.parse(now) - Date.parse(person.birthDate!)) / (365.2425 * 86_400_000));
  const highRisk = problems.some((c) => /colon|rect|crohn|colitis/i.test(c.code?.text ?? ''));
  const tests = [
    ...procedures.filter((p) => p.status === 'completed').map((p) => ({ code: p.code?.coding?.[0]?.code ?? '', date: p.performedDateTime ?? '' })),
    ...labs.filter((o) => o.status === 'final').map((o) => ({ code: o.code?.coding?.[0]?.code ?? '', date: o.effectiveDateTime ?? '' })),
  ].filter((t) => YEARS[t.code] && t.date);
  const current = tests.find((t) => {
    const until = new Date(t.date);
    until.setUTCFullYear(until.getUTCFullYear() + YEARS[t.code]);
    return until.getTime() > Date.parse(now);
  });
  if (age < 45 || age > 75 || highRisk || current) {
    const why = current ? `${NAMES[current.code]} on ${current.date.slice(0, 10)} is still within its ${YEARS[current.code]}-year interval` : `age ${age}${highRisk ? ', not average risk' : ''}`;
    await submit(`Colorectal cancer screening is not due - ${why}. Nothing ordered.`);
    return;
  }
  await http.create({
    resourceType: 'ServiceRequest', status: 'active', intent: 'order',
    code: { coding: [{ system: 'http://loinc.org', code: '29771-3', display: 'Hemoglobin.gastrointestinal.lower [Presence] in Stool by Immunoassay' }], text: 'FIT' },
    subject: { reference: `Patient/${patient}` }, authoredOn: now,
  });
  await submit(`Screening is due (${age} y/o, ${tests.length ? 'last test out of interval' : 'never screened'}). I ordered a FIT kit to be mailed.`);
}
