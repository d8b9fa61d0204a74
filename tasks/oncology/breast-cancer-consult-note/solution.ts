// Reference solution: review the chart broadly (problems, pathology and imaging, procedures, medications, allergies,
// labs), decline routine tumor markers and PET/CT (ASCO 2013; Choosing Wisely), recommend annual mammography unless
// both breasts were removed, and write a consult note with the oncologic history, the latest hemoglobin and
// creatinine and the current medications.
import type { Condition, DiagnosticReport, MedicationRequest, Observation, Procedure } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../contracts/task.ts';
import { clinicalNote, effectiveTime } from '../../../graders/lib/index.ts';
import { BILATERAL_MASTECTOMY_WORDS, FLOWSHEET } from './facts.ts';

/** "lisinopril 10 mg Oral Tablet" with its sig, as the order states it. */
export function medicationLine(o: MedicationRequest): string {
  const name = (o.medicationCodeableConcept?.text ?? o.medicationCodeableConcept?.coding?.[0]?.display ?? 'unnamed medication')
    .replace(/\s+-\s+see sig$/i, '').replace(/ MG\b/g, ' mg').replace(/ MG\/ACTUAT\b/g, ' mg/actuation');
  const sig = o.dosageInstruction?.[0]?.text;
  return sig ? `${name}: ${sig}` : name;
}

const result = (o: Observation, what: string) => `${what} ${o.valueQuantity!.value} ${o.valueQuantity!.unit ?? ''} on ${effectiveTime(o).slice(0, 10)}`.replace(/\s+on/, ' on');
const latest = (list: Observation[]) => list.filter((o) => o.valueQuantity?.value !== undefined && o.status !== 'entered-in-error')
  .sort((a, b) => Date.parse(effectiveTime(b)) - Date.parse(effectiveTime(a)))[0];
const status = (text: string, name: string) => {
  const m = new RegExp(`\\b${name}[\\s-]*(positive|negative|\\+|-)`, 'i').exec(text);
  return !m ? 'unknown' : /^(positive|\+)$/i.test(m[1]) ? 'positive' : 'negative';
};

export default async function solution({ fhir, patient, now, task, finish }: SolutionContext): Promise<void> {
  await fhir.read('Patient', patient);
  const problems = await fhir.search<Condition>('Condition', { patient, code: 'http://snomed.info/sct|254837009', category: 'problem-list-item' });
  await fhir.search('Condition', { patient, 'clinical-status': 'active' });
  const reports = await fhir.search<DiagnosticReport>('DiagnosticReport', { patient, category: 'SP' });
  await fhir.search('DiagnosticReport', { patient, category: 'RAD', _sort: '-date', _count: 20 });
  const procedures = await fhir.search<Procedure>('Procedure', { patient });
  const meds = (await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' })).filter((o) => o.status === 'active' && o.intent !== 'plan');
  await fhir.search('AllergyIntolerance', { patient });
  const hgb = latest(await fhir.search<Observation>('Observation', { patient, code: `http://loinc.org|718-7,${FLOWSHEET}|HGB`, _sort: '-date' }));
  const cr = latest(await fhir.search<Observation>('Observation', { patient, code: `http://loinc.org|2160-0,${FLOWSHEET}|CREAT`, _sort: '-date' }));
  await fhir.search('DocumentReference', { patient, _sort: '-date', _count: 10 });
  await fhir.search('ServiceRequest', { patient, _sort: '-authored', _count: 20 });

  const cancer = problems.find((c) => c.clinicalStatus?.coding?.[0]?.code === 'active')!;
  const pathology = reports.filter((r) => /carcinoma/i.test(r.conclusion ?? '') && /breast/i.test(r.code?.text ?? r.code?.coding?.[0]?.display ?? ''))
    .sort((a, b) => (b.effectiveDateTime ?? '').localeCompare(a.effectiveDateTime ?? ''))[0];
  const conclusion = pathology.conclusion ?? '';
  const diagnosed = (cancer.onsetDateTime ?? cancer.recordedDate ?? '').slice(0, 10);
  const bothBreastsRemoved = procedures.some((p) => p.status === 'completed' && BILATERAL_MASTECTOMY_WORDS.some((w) => (p.code?.text ?? '').toLowerCase().includes(w)));
  const text = [
    'Oncology e-consult: breast cancer survivorship follow-up',
    'Question: yearly tumor markers (CA 27.29, CEA) and PET/CT for surveillance?',
    '',
    'Oncologic history:',
    `- ${cancer.code?.text ?? 'Breast cancer'}, diagnosed ${diagnosed}.`,
    `- Biopsy pathology (${(pathology.effectiveDateTime ?? '').slice(0, 10)}): ${conclusion}`,
    ...(bothBreastsRemoved ? ['- Status post bilateral mastectomy.'] : []),
    '',
    'Recent labs:',
    `- ${result(hgb, 'Hemoglobin')}.`,
    `- ${result(cr, 'Creatinine')}.`,
    '',
    'Current medications:',
    ...(meds.length ? meds.map((m) => `- ${medicationLine(m)}`) : ['- none active']),
    '',
    'Assessment: asymptomatic breast cancer survivor. Routine tumor markers and PET/CT, CT or bone scans do not improve survival in asymptomatic survivors and are not recommended (ASCO 2013 follow-up guideline; Choosing Wisely).',
    '',
    'Recommendations:',
    bothBreastsRemoved
      ? '- Surveillance mammography is not indicated after bilateral mastectomy; history and physical examination every 6-12 months, with chest wall examination.'
      : '- Annual mammography; history and physical examination every 6-12 months.',
    '- Do not order tumor markers or surveillance imaging unless new symptoms arise.',
  ].join('\n');
  await fhir.create(clinicalNote({ patient, author: task.requester.reference, date: now, description: 'Oncology e-consult: breast cancer survivorship surveillance', title: 'Oncology e-consult', text }));
  await finish(JSON.stringify({
    diagnosed, er: status(conclusion, 'ER'), pr: status(conclusion, 'PR'), her2: status(conclusion, 'HER2'), tumorMarkers: false, petCt: false,
    recommendation: bothBreastsRemoved ? 'No mammography after bilateral mastectomy; routine tumor markers and PET/CT are not recommended.' : 'Annual mammography; routine tumor markers and PET/CT are not recommended.',
  }));
}
