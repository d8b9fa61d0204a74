// Reference solution: read her age, problem list (breast cancer, bilateral mastectomy), procedures and imaging
// reports; find the last mammogram by any of its records. Due (50-74, no mammogram for more than 2 years, breast
// tissue to screen; USPSTF 2024 biennial): order a bilateral screening mammogram. Not due: order nothing. Either
// way write a short note with the last mammogram date and the decision.
// Independent of grader.ts: it shares only facts.ts and decides with its own code.
import type { CodeableConcept, Condition, DiagnosticReport, Patient, Procedure, ServiceRequest } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../contracts/task.ts';
import { clinicalNote, PROGRESS_NOTE, type CodeSet } from '../../../graders/lib/index.ts';
import { AGREED_AGES, BILATERAL_MASTECTOMY, BREAST_CANCER, INTERVAL_MONTHS, MAMMOGRAM } from './facts.ts';

const coded = (concept: CodeableConcept | undefined, sets: CodeSet[]) =>
  (concept?.coding ?? []).some((c) => sets.some((s) => s.system === c.system && s.codes.includes(c.code ?? '')));
const breastCancer = (concept: CodeableConcept | undefined) => coded(concept, BREAST_CANCER.codes)
  || (concept?.coding ?? []).some((c) => c.system === BREAST_CANCER.icd10Prefixes.system && BREAST_CANCER.icd10Prefixes.prefixes.some((p) => c.code?.startsWith(p)));

/** Whole months from `from` to `to` (calendar months, day-exact). */
function monthsBetween(from: string, to: string): number {
  const a = new Date(from);
  const b = new Date(to);
  return (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + (b.getUTCMonth() - a.getUTCMonth()) - (b.getUTCDate() < a.getUTCDate() ? 1 : 0);
}

export default async function solution({ fhir, patient, now, task, finish }: SolutionContext): Promise<void> {
  const person = await fhir.read<Patient>('Patient', patient);
  const conditions = await fhir.search<Condition>('Condition', { patient });
  const procedures = await fhir.search<Procedure>('Procedure', { patient });
  const reports = await fhir.search<DiagnosticReport>('DiagnosticReport', { patient });
  await fhir.search('ServiceRequest', { patient, status: 'active' });

  const age = Math.floor(monthsBetween(person.birthDate!, now) / 12);
  const mammograms = [
    ...procedures.filter((p) => p.status === 'completed' && coded(p.code, MAMMOGRAM)).map((p) => p.performedDateTime ?? p.performedPeriod?.start ?? ''),
    ...reports.filter((r) => ['final', 'amended', 'corrected'].includes(r.status) && coded(r.code, MAMMOGRAM)).map((r) => r.effectiveDateTime ?? r.effectivePeriod?.start ?? ''),
  ].filter(Boolean).sort().reverse();
  const last = mammograms[0]?.slice(0, 10) ?? null;
  const mastectomy = procedures.find((p) => p.status === 'completed' && coded(p.code, BILATERAL_MASTECTOMY.procedures))
    ?? conditions.find((c) => coded(c.code, BILATERAL_MASTECTOMY.conditions));
  const cancer = conditions.find((c) => breastCancer(c.code));
  const monthsSince = last ? monthsBetween(last, now) : undefined;

  let due = false;
  let why: string;
  if (mastectomy) why = 'she has had a bilateral mastectomy, so there is no breast tissue to screen: screening mammography is not indicated';
  else if (cancer) why = 'she has a breast cancer history: surveillance follows her oncology plan, not average-risk screening';
  else if (age < AGREED_AGES.from || age > AGREED_AGES.through) why = `at ${age} she is outside the 50-74 screening band`;
  else if (monthsSince !== undefined && monthsSince < INTERVAL_MONTHS) why = `her last mammogram was ${monthsSince} months ago, within the 2-year interval: the next one is not due yet`;
  else {
    due = true;
    why = last ? `her last mammogram was ${monthsSince} months ago, more than 2 years` : 'there is no mammogram on file';
  }

  if (due) {
    await fhir.create<ServiceRequest>({
      resourceType: 'ServiceRequest', status: 'active', intent: 'order', priority: 'routine',
      category: [{ coding: [{ system: 'http://snomed.info/sct', code: '363679005', display: 'Imaging' }] }],
      code: { coding: [{ system: 'http://snomed.info/sct', code: '24623002', display: 'Screening mammography' }], text: 'Screening mammogram, bilateral' },
      subject: { reference: `Patient/${patient}` }, authoredOn: now, requester: { reference: task.requester.reference },
      reasonCode: [{ text: 'Routine breast cancer screening, average risk (USPSTF 2024)' }],
    });
  }
  const text = [
    'BREAST CANCER SCREENING - CARE GAP REVIEW',
    `${age}-year-old woman.`,
    last ? `Last mammogram on file: ${last}.` : 'No prior mammogram on file.',
    `Assessment: ${why}.`,
    due ? 'Plan: biennial screening mammography (every 2 years) is recommended for women 40-74 (USPSTF 2024); screening mammogram is due and has been ordered.'
      : 'Plan: screening mammogram is not due; nothing ordered.',
  ].join('\n');
  await fhir.create(clinicalNote({ type: PROGRESS_NOTE, patient, author: task.requester.reference, date: now, description: 'Breast cancer screening care gap', title: 'Breast cancer screening', text }));
  await finish(JSON.stringify({ due, lastMammogram: last, ordered: due ? 'bilateral screening mammogram' : null }));
}
