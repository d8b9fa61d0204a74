// Reference solution: review the chart broadly (problems, pathology and imaging, procedures, medications, allergies,
// labs, vitals, notes, care plans), decline routine tumor markers and PET/CT (ASCO 2013; Choosing Wisely), and write
// a consult note with the oncologic history, the latest hemoglobin and creatinine and the current medications.
import type { MedicationRequest, Observation } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../harness/types.ts';
import { clinicalNote, effectiveTime } from '../../../graders/lib/index.ts';
import { facts, onsetDate } from './grader.ts';

const FLOWSHEET = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';

/** "lisinopril 10 MG Oral Tablet" with its sig, as the order states it. */
export function medicationLine(o: MedicationRequest): string {
  const name = (o.medicationCodeableConcept?.text ?? o.medicationCodeableConcept?.coding?.[0]?.display ?? 'unnamed medication')
    .replace(/\s+-\s+see sig$/i, '').replace(/ MG\b/g, ' mg').replace(/ MG\/ACTUAT\b/g, ' mg/actuation');
  const sig = o.dosageInstruction?.[0]?.text;
  return sig ? `${name}: ${sig}` : name;
}

const result = (o: Observation, what: string) => `${what} ${o.valueQuantity!.value} ${o.valueQuantity!.unit ?? ''} on ${effectiveTime(o).slice(0, 10)}`.replace(/\s+on/, ' on');

export default async function solution({ fhir, patient, now, task, finish }: SolutionContext): Promise<void> {
  await fhir.read('Patient', patient);
  await fhir.search('Condition', { patient, 'clinical-status': 'active' });
  await fhir.search('Condition', { patient, code: 'http://snomed.info/sct|254837009' });
  await fhir.search('DiagnosticReport', { patient, category: 'SP' });
  await fhir.search('DiagnosticReport', { patient, category: 'RAD', _sort: '-date', _count: 20 });
  await fhir.search('Procedure', { patient });
  await fhir.search('MedicationRequest', { patient, status: 'active' });
  await fhir.search('AllergyIntolerance', { patient });
  await fhir.search('Observation', { patient, code: `http://loinc.org|718-7,${FLOWSHEET}|HGB`, _sort: '-date', _count: 5 });
  await fhir.search('Observation', { patient, code: `http://loinc.org|2160-0,${FLOWSHEET}|CREAT`, _sort: '-date', _count: 5 });
  await fhir.search('Observation', { patient, code: `http://loinc.org|1742-6,http://loinc.org|6768-6,${FLOWSHEET}|ALT`, _sort: '-date', _count: 5 });
  await fhir.search('Observation', { patient, category: 'vital-signs', _sort: '-date', _count: 10 });
  await fhir.search('CarePlan', { patient });
  await fhir.search('DocumentReference', { patient, _sort: '-date', _count: 10 });
  await fhir.search('Encounter', { patient, _sort: '-date', _count: 10 });
  await fhir.search('ServiceRequest', { patient, _sort: '-authored', _count: 20 });
  await fhir.search('Appointment', { patient });

  const f = (await facts(fhir, patient))!;
  const diagnosed = onsetDate(f.condition);
  const meds = f.meds.map((m) => `- ${medicationLine(m)}`);
  const text = [
    'Oncology e-consult: breast cancer survivorship follow-up',
    'Question: yearly tumor markers (CA 27.29, CEA) and PET/CT for surveillance?',
    '',
    'Oncologic history:',
    `- ${f.condition.code?.text ?? 'Breast cancer'}, diagnosed ${diagnosed}.`,
    `- Biopsy pathology (${(f.pathology.effectiveDateTime ?? '').slice(0, 10)}): ${f.pathology.conclusion}`,
    '',
    'Recent labs:',
    `- ${result(f.hemoglobin, 'Hemoglobin')}.`,
    `- ${result(f.creatinine, 'Creatinine')}.`,
    '',
    'Current medications:',
    ...(meds.length ? meds : ['- none active']),
    '',
    'Assessment: asymptomatic breast cancer survivor. Routine tumor markers and PET/CT, CT or bone scans do not improve survival in asymptomatic survivors and are not recommended (ASCO 2013 follow-up guideline; Choosing Wisely).',
    '',
    'Recommendations:',
    '- Annual mammography; history and physical examination every 6-12 months.',
    '- Do not order tumor markers or surveillance imaging unless new symptoms arise.',
    '- Confirm the adjuvant endocrine therapy history with her oncologist.',
  ].join('\n');
  await fhir.create(clinicalNote({ patient, author: task.requester.reference, date: now, description: 'Oncology e-consult: breast cancer survivorship surveillance', title: 'Oncology e-consult', text }));
  await finish(JSON.stringify({ diagnosed, er: f.er, pr: f.pr, her2: f.her2, tumorMarkers: false, petCt: false, recommendation: 'Annual mammography; routine tumor markers and PET/CT are not recommended.' }));
}
