// Reference solution: read the problem list for a standing indication for long-term PPI (Barrett's esophagus, peptic
// stricture, severe erosive esophagitis, a bleeding ulcer). Without one, stop the daily PPI with a reason and advise
// on-demand use (AGA 2022 de-prescribing update); with one, keep it and say why. Either way, file the consult note.
import type { Condition, MedicationRequest, Observation } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../contracts/task.ts';
import { classesOfOrder, clinicalNote, effectiveTime } from '../../../graders/lib/index.ts';
import { LONG_TERM_PPI_INDICATIONS, PPI_CLASS } from './facts.ts';

const newest = (list: Observation[]) => list.filter((o) => o.valueQuantity?.value !== undefined && o.status !== 'entered-in-error')
  .sort((a, b) => Date.parse(effectiveTime(b)) - Date.parse(effectiveTime(a)))[0];

/** The indication a problem stands for, by code or by its words. */
function indicationOf(c: Condition): string | undefined {
  const codings = c.code?.coding ?? [];
  const words = [c.code?.text, ...codings.map((x) => x.display)].join(' ').toLowerCase();
  return LONG_TERM_PPI_INDICATIONS.find((i) => codings.some((x) => i.codes.some((set) => set.system === x.system && set.codes.includes(x.code ?? '')))
    || i.words.some((w) => words.includes(w)))?.name;
}

export default async function solution({ fhir, patient, now, task, finish }: SolutionContext): Promise<void> {
  await fhir.read('Patient', patient);
  const problems = await fhir.search<Condition>('Condition', { patient });
  await fhir.search('AllergyIntolerance', { patient });
  const active = await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  const hgb = newest(await fhir.search<Observation>('Observation', { patient, code: 'http://loinc.org|718-7', _sort: '-date' }));
  const mcv = newest(await fhir.search<Observation>('Observation', { patient, code: 'http://loinc.org|787-2', _sort: '-date' }));
  const egfr = newest(await fhir.search<Observation>('Observation', { patient, code: 'http://loinc.org|33914-3', _sort: '-date' }));
  await fhir.search('Observation', { patient, code: 'http://loinc.org|2160-0', _sort: '-date', _count: 3 });
  await fhir.search('Procedure', { patient });
  await fhir.search('DocumentReference', { patient, _sort: '-date', _count: 3 });

  const indications = [...new Set(problems.filter((c) => c.verificationStatus?.coding?.[0]?.code !== 'entered-in-error').map(indicationOf).filter((x): x is string => !!x))];
  const ppi = active.filter((o) => o.status === 'active' && classesOfOrder(o).includes(PPI_CLASS));
  const since = ppi.map((o) => (o.authoredOn ?? '').slice(0, 4)).sort()[0];
  const drug = (ppi[0]?.medicationCodeableConcept?.text ?? 'omeprazole').replace(/ MG\b/g, ' mg');
  const labs = `Labs: hemoglobin ${hgb.valueQuantity!.value} g/dL (${effectiveTime(hgb).slice(0, 10)})${mcv ? `, MCV ${mcv.valueQuantity!.value} fL` : ''}; eGFR ${egfr.valueQuantity!.value} mL/min/1.73m2 (${effectiveTime(egfr).slice(0, 10)}).`;
  let assessment: string[];
  let answer: string;
  if (indications.length === 0) {
    for (const o of ppi) {
      await fhir.read('MedicationRequest', o.id!);
      await fhir.patch('MedicationRequest', o.id!, [
        { op: 'replace', path: '/status', value: 'stopped' },
        { op: 'add', path: '/statusReason', value: { text: 'PPI de-prescribing: uncomplicated GERD, asymptomatic; changed to on-demand use' } },
      ]);
    }
    assessment = [
      'Assessment: uncomplicated GERD with sustained symptom control and no standing indication for long-term PPI - candidate for PPI de-prescribing (AGA 2022).',
      'Plan: stop the daily omeprazole (order discontinued). Take omeprazole 20 mg only on demand for breakthrough heartburn. Transient rebound heartburn is expected in the first 2-4 weeks; use antacids. If symptoms recur persistently, resume the lowest effective daily dose; alarm symptoms (dysphagia, bleeding, weight loss) warrant EGD.',
    ];
    answer = 'Stopped the daily omeprazole (uncomplicated GERD, asymptomatic, no long-term indication); on-demand omeprazole for breakthrough heartburn. Consult note filed.';
  } else {
    assessment = [
      `Assessment: GERD with ${indications.join(' and ')} on the problem list - a standing indication for long-term PPI; not a candidate for de-prescribing (AGA 2022).`,
      'Plan: continue omeprazole 20 mg once daily long term at the lowest effective dose; no order changed. Review the indication yearly.',
    ];
    answer = `Continue the daily omeprazole: ${indications.join(' and ')} is a standing indication for long-term PPI, so it should not be de-prescribed. Consult note filed.`;
  }
  const text = [
    'GASTROENTEROLOGY E-CONSULT NOTE',
    'Question: can long-term PPI be stopped?',
    `History: gastroesophageal reflux disease (GERD) on the problem list${indications.length ? `; ${indications.join('; ')}` : ''}. On ${drug} daily since ${since}. Asymptomatic, no alarm features reported.`,
    labs,
    ...assessment,
  ].join('\n');
  await fhir.create(clinicalNote({ patient, author: task.requester.reference, date: now, description: 'GI e-consult: PPI de-prescribing', title: 'GI e-consult', text }));
  await finish(answer);
}
