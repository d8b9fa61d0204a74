// Reference solution: review the chart (problems, oncologic pathology, meds, allergies, labs, notes), decline
// testosterone (Endocrine Society: contraindicated with prostate cancer) and document the facts in a consult note.
import type { Condition, DiagnosticReport } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../harness/types.ts';
import { clinicalNote } from '../../../graders/lib/index.ts';
import { facts } from './grader.ts';

export default async function solution({ fhir, patient, now, task, finish }: SolutionContext): Promise<void> {
  const person = await fhir.read('Patient', patient);
  await fhir.search<Condition>('Condition', { patient, 'clinical-status': 'active' });
  await fhir.search<Condition>('Condition', { patient, code: 'http://snomed.info/sct|399068003' });
  await fhir.search<DiagnosticReport>('DiagnosticReport', { patient, category: 'SP' });
  await fhir.search('Procedure', { patient });
  await fhir.search('MedicationRequest', { patient, status: 'active' });
  await fhir.search('AllergyIntolerance', { patient });
  await fhir.search('Observation', { patient, code: 'http://loinc.org|2160-0,http://loinc.org|33914-3', _sort: '-date', _count: 5 });
  await fhir.search('Observation', { patient, code: 'http://loinc.org|718-7,http://loinc.org|4544-3', _sort: '-date', _count: 5 });
  await fhir.search('Observation', { patient, category: 'vital-signs', _sort: '-date', _count: 10 });
  await fhir.search('DocumentReference', { patient, _sort: '-date', _count: 10 });
  await fhir.search('Encounter', { patient, _sort: '-date', _count: 10 });
  await fhir.search('CarePlan', { patient });
  await fhir.search('ServiceRequest', { patient, category: 'http://snomed.info/sct|386053000' });
  await fhir.search('Appointment', { patient });
  const f = (await facts(fhir, patient))!;
  const diagnosed = (f.condition.onsetDateTime ?? f.condition.recordedDate ?? '').slice(0, 10);
  const total = f.primary + f.secondary;
  const text = [
    'Urology e-consult: testosterone request',
    `Patient: ${(person as { name?: { given?: string[]; family?: string }[] }).name?.[0]?.family ?? patient}`,
    `Question: start testosterone cypionate 100 mg IM weekly for fatigue and low libido with borderline low testosterone.`,
    `Oncologic history: prostate cancer (prostatic adenocarcinoma) diagnosed ${diagnosed}; biopsy pathology: Gleason score ${f.primary}+${f.secondary} = ${total}${f.cores ? `, ${f.cores} cores positive` : ''}. Currently managed by urology.`,
    'Assessment: testosterone therapy is not recommended - it is contraindicated in men with prostate cancer (Endocrine Society 2018; AUA 2018).',
    'Recommendation: do not start testosterone; no androgen ordered. Evaluate other causes of fatigue (sleep, mood, thyroid, anemia, medications); discuss with the treating urologist.',
  ].join('\n');
  await fhir.create(clinicalNote({ patient, author: task.requester.reference, date: now, description: 'Urology e-consult: testosterone not recommended (prostate cancer)', text }));
  await finish(JSON.stringify({ startTestosterone: false, gleason: `${f.primary}+${f.secondary}`, diagnosed, reason: 'Testosterone therapy is contraindicated in prostate cancer' }));
}
