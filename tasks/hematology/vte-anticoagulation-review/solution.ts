// Reference solution: review problems, procedures, the medication history (the anticoagulant course), CBC and kidney
// labs; write a consult note abstracting the VTE episode and the bleeding-relevant labs, with the direction CHEST 2021
// gives beyond the 3-month treatment phase: stop after a DVT provoked by major surgery, extend with active cancer,
// otherwise weigh recurrence against bleeding at the visit. No order is changed.
import type { Condition, MedicationRequest, Observation, Procedure } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../contracts/task.ts';
import { clinicalNote, drugIngredientNames, effectiveTime } from '../../../graders/lib/index.ts';
import { CANCER, ICD10, MAJOR_SURGERY, PROVOKING_WINDOW_DAYS } from './facts.ts';

const FLOWSHEET = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';
const ANTICOAGULANTS = ['apixaban', 'rivaroxaban', 'edoxaban', 'dabigatran', 'dabigatran etexilate', 'warfarin', 'enoxaparin', 'dalteparin', 'fondaparinux'];
const DAY = 86400_000;

const result = (o: Observation, what: string) => `${what} ${o.valueQuantity!.value} ${o.valueQuantity!.unit ?? ''} on ${effectiveTime(o).slice(0, 10)}`.replace(/\s+on/, ' on');
const latest = (list: Observation[]) => list.filter((o) => o.valueQuantity?.value !== undefined && o.status !== 'entered-in-error')
  .sort((a, b) => Date.parse(effectiveTime(b)) - Date.parse(effectiveTime(a)))[0];
const has = (codes: { system: string; codes: string[] }[], concept: Condition['code']) => (concept?.coding ?? []).some((c) => codes.some((s) => s.system === c.system && s.codes.includes(c.code ?? '')));

export default async function solution({ fhir, patient, now, task, finish }: SolutionContext): Promise<void> {
  await fhir.read('Patient', patient);
  const problems = await fhir.search<Condition>('Condition', { patient });
  const dvt = problems.filter((c) => (c.code?.coding ?? []).some((x) => x.code === '128053003') && c.category?.some((k) => k.coding?.some((x) => x.code === 'problem-list-item')))
    .sort((a, b) => (b.onsetDateTime ?? '').localeCompare(a.onsetDateTime ?? ''))[0];
  const orders = await fhir.search<MedicationRequest>('MedicationRequest', { patient, _sort: '-authoredon', _count: 200 });
  const procedures = await fhir.search<Procedure>('Procedure', { patient });
  await fhir.search('AllergyIntolerance', { patient });
  const hgb = latest(await fhir.search<Observation>('Observation', { patient, code: `http://loinc.org|718-7,${FLOWSHEET}|HGB`, _sort: '-date' }));
  const plt = latest(await fhir.search<Observation>('Observation', { patient, code: `http://loinc.org|777-3,http://loinc.org|26515-7,${FLOWSHEET}|PLT`, _sort: '-date' }));
  const cr = latest(await fhir.search<Observation>('Observation', { patient, code: `http://loinc.org|2160-0,http://loinc.org|38483-4,${FLOWSHEET}|CREAT`, _sort: '-date' }));
  await fhir.search('DocumentReference', { patient, _sort: '-date', _count: 10 });

  const onset = dvt.onsetDateTime ?? dvt.recordedDate ?? '';
  const anticoagulants = orders.filter((o) => ['active', 'stopped', 'completed', 'on-hold'].includes(o.status)
    && drugIngredientNames(o.medicationCodeableConcept).some((n) => ANTICOAGULANTS.includes(n)));
  const order = anticoagulants.find((o) => o.reasonReference?.some((r) => r.reference === `Condition/${dvt.id}`))
    ?? anticoagulants.find((o) => Math.abs(Date.parse(o.authoredOn ?? '') - Date.parse(onset)) < 14 * DAY)!;
  await fhir.read('MedicationRequest', order.id!);
  const drug = drugIngredientNames(order.medicationCodeableConcept).find((n) => ANTICOAGULANTS.includes(n))!.replace(' etexilate', '');
  const bounds = order.dosageInstruction?.[0]?.timing?.repeat?.boundsPeriod;
  const started = (bounds?.start ?? order.authoredOn ?? '').slice(0, 10);
  const active = order.status === 'active';
  const stopped = active ? undefined : (bounds?.end ?? '').slice(0, 10);
  const months = Math.round(((Date.parse(stopped ?? now) - Date.parse(started)) / DAY / 30.4375) * 10) / 10;
  const dose = order.dosageInstruction?.[0];
  const amount = dose?.doseAndRate?.[0]?.doseQuantity;
  const perDay = dose?.timing?.repeat?.period === 1 && dose.timing.repeat.periodUnit === 'd' ? dose.timing.repeat.frequency : undefined;
  const regimen = amount && perDay ? `${drug} ${amount.value} ${amount.unit} ${['', 'once daily', 'twice daily', 'three times daily'][perDay] ?? `${perDay} times daily`}` : `${drug} (${dose?.text ?? 'see sig'})`;
  const course = active ? `${regimen}, started ${started}, still active (${months} months so far).` : `${regimen} was stopped on ${stopped} after ${months} months of treatment (started ${started}).`;

  // CHEST 2021: active cancer is a persistent risk factor; major surgery shortly before is a major transient one.
  const cancer = problems.find((c) => c.clinicalStatus?.coding?.[0]?.code === 'active'
    && (has(CANCER.codes, c.code) || (c.code?.coding ?? []).some((x) => x.system === ICD10 && CANCER.icd10Prefix.test(x.code ?? ''))));
  const surgery = procedures.find((p) => {
    const when = Date.parse(p.performedDateTime ?? p.performedPeriod?.start ?? '');
    const words = [p.code?.text, ...(p.code?.coding ?? []).map((c) => c.display)].join(' ').toLowerCase();
    return p.status === 'completed' && when <= Date.parse(onset) && Date.parse(onset) - when <= PROVOKING_WINDOW_DAYS * DAY
      && (has(MAJOR_SURGERY.codes, p.code) || MAJOR_SURGERY.words.some((w) => words.includes(w)));
  });
  const plan = cancer
    ? [`- Cancer-associated DVT (${cancer.code?.text}): recommend extended-phase anticoagulation - ${active ? 'continue' : 'resume'} ${drug} without a planned stop date while the cancer is active (CHEST 2021).`]
    : surgery
      ? [`- DVT provoked by a major transient risk factor (${surgery.code?.text} on ${(surgery.performedDateTime ?? '').slice(0, 10)}): recommend stopping ${drug} at the visit now that the 3-month treatment phase is complete; extended-phase therapy is not indicated (CHEST 2021).`]
      : ['- Decide on extended-phase anticoagulation at the visit, weighing recurrence against bleeding risk (CHEST 2021): for an unprovoked DVT, extended-phase therapy is suggested when bleeding risk is low or moderate.'];
  const text = [
    'Hematology e-consult: VTE history and anticoagulation course',
    '',
    `Diagnosis: deep venous thrombosis (DVT) of the lower extremity, diagnosed ${onset.slice(0, 10)}.`,
    `Anticoagulation: ${course}`,
    '',
    'Latest labs:',
    `- ${result(hgb, 'Hemoglobin')}.`,
    `- ${result(plt, 'Platelets')}.`,
    `- ${result(cr, 'Creatinine')}.`,
    '',
    'Recommendations:',
    ...plan,
    '- No orders were changed.',
  ].join('\n');
  await fhir.create(clinicalNote({ patient, author: task.requester.reference, date: now, description: 'Hematology e-consult: VTE anticoagulation review', title: 'Hematology e-consult', text }));
  await finish(JSON.stringify({ diagnosed: onset.slice(0, 10), anticoagulant: drug, started, stopped: stopped ?? null, currentlyAnticoagulated: active, monthsTreated: months }));
}
