// Reference solution: read the patient's age, problem list, procedures, stool-test results and imaging reports, and
// decide from them whether average-risk colorectal screening is due (USPSTF 2021: 45-75; nothing in the chart still
// covers the patient - colonoscopy 10 y, CT colonography / flexible sigmoidoscopy 5 y, stool DNA-FIT 3 y, FIT 1 y).
// Due: order one screening colonoscopy. Not due: order nothing and say what covers the patient until when.
// Independent of grader.ts: it shares only the facts (codes, ages, intervals) and decides with its own code.
import type { CodeableConcept, Condition, DiagnosticReport, Observation, Patient, Procedure, ServiceRequest } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../contracts/task.ts';
import type { CodeSet } from '../../../graders/lib/index.ts';
import { NOT_AVERAGE_RISK, SCREENING_AGES, SCREENING_TESTS, type ScreeningTest } from './facts.ts';

const hasCode = (concept: CodeableConcept | undefined, sets: CodeSet[]) =>
  (concept?.coding ?? []).some((c) => sets.some((s) => s.system === c.system && s.codes.includes(c.code ?? '')));

/** Whole years between two dates, birthday-exact. */
function yearsBetween(from: string, to: string): number {
  const a = new Date(from);
  const b = new Date(to);
  let years = b.getUTCFullYear() - a.getUTCFullYear();
  if (b.getUTCMonth() < a.getUTCMonth() || (b.getUTCMonth() === a.getUTCMonth() && b.getUTCDate() < a.getUTCDate())) years--;
  return years;
}

function addYears(date: string, years: number): string {
  const d = new Date(date);
  d.setUTCFullYear(d.getUTCFullYear() + years);
  return d.toISOString().slice(0, 10);
}

interface Done { test: ScreeningTest; date: string; ref: string }

export default async function solution({ fhir, patient, now, task, finish }: SolutionContext): Promise<void> {
  const person = await fhir.read<Patient>('Patient', patient);
  const conditions = await fhir.search<Condition>('Condition', { patient });
  const procedures = await fhir.search<Procedure>('Procedure', { patient });
  const resultCodes = SCREENING_TESTS.flatMap((t) => t.resultCodes.flatMap((s) => s.codes.map((c) => `${s.system}|${c}`))).join(',');
  const results = await fhir.search<Observation>('Observation', { patient, code: resultCodes });
  const reports = await fhir.search<DiagnosticReport>('DiagnosticReport', { patient });
  const openOrders = await fhir.search<ServiceRequest>('ServiceRequest', { patient, status: 'active,on-hold,draft' });

  const age = yearsBetween(person.birthDate!, now);
  const highRisk = conditions.some((c) => hasCode(c.code, NOT_AVERAGE_RISK.conditions))
    || procedures.some((p) => p.status === 'completed' && hasCode(p.code, NOT_AVERAGE_RISK.procedures));

  const done: Done[] = [];
  for (const test of SCREENING_TESTS) {
    for (const p of procedures) {
      if (p.status === 'completed' && p.performedDateTime && hasCode(p.code, test.procedureCodes)) done.push({ test, date: p.performedDateTime, ref: `Procedure/${p.id}` });
    }
    for (const o of results) {
      if (['final', 'amended', 'corrected'].includes(o.status) && o.effectiveDateTime && hasCode(o.code, test.resultCodes)) done.push({ test, date: o.effectiveDateTime, ref: `Observation/${o.id}` });
    }
    for (const r of reports) {
      if (['final', 'amended', 'corrected'].includes(r.status) && r.effectiveDateTime && (hasCode(r.code, test.resultCodes) || hasCode(r.code, test.procedureCodes))) done.push({ test, date: r.effectiveDateTime, ref: `DiagnosticReport/${r.id}` });
    }
  }
  // The test that covers the patient longest decides; a test whose interval has run out covers nothing.
  const covering = done.map((d) => ({ ...d, until: addYears(d.date, d.test.years) }))
    .filter((d) => d.until > now.slice(0, 10))
    .sort((a, b) => b.until.localeCompare(a.until))[0];
  const latest = [...done].sort((a, b) => b.date.localeCompare(a.date))[0];
  const alreadyOrdered = openOrders.some((o) => SCREENING_TESTS.some((t) => hasCode(o.code, t.procedureCodes) || hasCode(o.code, t.resultCodes)));
  const inAgeRange = age >= SCREENING_AGES.from && age <= SCREENING_AGES.through;
  const due = inAgeRange && !highRisk && !covering && !alreadyOrdered;

  const lastScreening = latest ? { test: latest.test.label, date: latest.date.slice(0, 10) } : null;
  if (!due) {
    const why = !inAgeRange ? `age ${age} is outside USPSTF 45-75` : highRisk ? 'not average risk (surveillance pathway)'
      : covering ? `${covering.test.label} on ${covering.date.slice(0, 10)} covers screening until ${covering.until}` : 'a screening order is already open';
    await finish(JSON.stringify({ due: false, ordered: null, lastScreening, reason: why }));
    return;
  }
  await fhir.create<ServiceRequest>({
    resourceType: 'ServiceRequest', status: 'active', intent: 'order', priority: 'routine',
    category: [{ coding: [{ system: 'http://snomed.info/sct', code: '387713003', display: 'Surgical procedure' }] }],
    code: { coding: [{ system: 'http://snomed.info/sct', code: '73761001', display: 'Colonoscopy' }], text: 'Screening colonoscopy' },
    subject: { reference: `Patient/${patient}` }, authoredOn: now, requester: { reference: task.requester.reference },
    reasonCode: [{ coding: [{ system: 'http://snomed.info/sct', code: '275978004', display: 'Screening for malignant neoplasm of colon' }], text: 'Average-risk colorectal cancer screening (USPSTF 2021)' }],
  });
  const reason = latest ? `last screening (${latest.test.label}, ${latest.date.slice(0, 10)}) no longer covers the ${latest.test.years}-year interval` : 'no colorectal screening on file';
  await finish(JSON.stringify({ due: true, ordered: 'screening colonoscopy', lastScreening, reason }));
}
