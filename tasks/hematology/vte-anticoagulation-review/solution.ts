// Reference solution: review problems, medication history (the anticoagulant course), allergies, CBC and kidney
// labs, vitals, encounters, notes and care plans; write a consult note abstracting the VTE episode and the
// bleeding-relevant labs for the extended-phase decision (CHEST 2021). No order is changed.
import type { Observation } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../harness/types.ts';
import { clinicalNote, effectiveTime } from '../../../graders/lib/index.ts';
import { facts, onsetDate } from './grader.ts';

const FLOWSHEET = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';
const result = (o: Observation, what: string) => `${what} ${o.valueQuantity!.value} ${o.valueQuantity!.unit ?? ''} on ${effectiveTime(o).slice(0, 10)}`.replace(/\s+on/, ' on');

export default async function solution({ fhir, patient, now, task, finish }: SolutionContext): Promise<void> {
  await fhir.read('Patient', patient);
  await fhir.search('Condition', { patient, category: 'problem-list-item' });
  await fhir.search('Condition', { patient, code: 'http://snomed.info/sct|128053003' });
  await fhir.search('MedicationRequest', { patient, status: 'active' });
  await fhir.search('MedicationRequest', { patient, _sort: '-authoredon', _count: 200 });
  await fhir.search('AllergyIntolerance', { patient });
  await fhir.search('Observation', { patient, code: `http://loinc.org|718-7,${FLOWSHEET}|HGB`, _sort: '-date', _count: 5 });
  await fhir.search('Observation', { patient, code: `http://loinc.org|777-3,${FLOWSHEET}|PLT`, _sort: '-date', _count: 5 });
  await fhir.search('Observation', { patient, code: `http://loinc.org|2160-0,${FLOWSHEET}|CREAT`, _sort: '-date', _count: 5 });
  await fhir.search('Observation', { patient, code: `http://loinc.org|33914-3,${FLOWSHEET}|EGFR`, _sort: '-date', _count: 5 });
  await fhir.search('Observation', { patient, category: 'vital-signs', _sort: '-date', _count: 10 });
  await fhir.search('DiagnosticReport', { patient, _sort: '-date', _count: 20 });
  await fhir.search('Procedure', { patient });
  await fhir.search('Encounter', { patient, _sort: '-date', _count: 20 });
  await fhir.search('DocumentReference', { patient, _sort: '-date', _count: 10 });
  await fhir.search('CarePlan', { patient });
  await fhir.search('Appointment', { patient });

  const f = (await facts(fhir, patient, now))!;
  const dose = f.order.dosageInstruction?.[0];
  const product = (f.order.medicationCodeableConcept?.text ?? f.drug).replace(/ MG\b/g, ' mg').replace(/\s+-\s+see sig$/i, '');
  const months = Math.round(f.months * 10) / 10;
  const amount = dose?.doseAndRate?.[0]?.doseQuantity;
  const perDay = dose?.timing?.repeat?.period === 1 && dose.timing.repeat.periodUnit === 'd' ? dose.timing.repeat.frequency : undefined;
  const regimen = amount && perDay ? `${f.drug} ${amount.value} ${amount.unit} ${['', 'once daily', 'twice daily', 'three times daily'][perDay] ?? `${perDay} times daily`}` : `${product} (${dose?.text ?? 'see sig'})`;
  const course = f.active
    ? `${regimen}, started ${f.started}, still active (${months} months so far).`
    : `${regimen} was stopped on ${f.stopped} after ${months} months of treatment (started ${f.started}).`;
  const text = [
    'Hematology e-consult: VTE history and anticoagulation course',
    '',
    `Diagnosis: deep venous thrombosis (DVT) of the lower extremity, diagnosed ${onsetDate(f.dvt)} (${f.dvt.clinicalStatus?.coding?.[0]?.code ?? 'unknown'} on the problem list).`,
    `Anticoagulation: ${course}`,
    '',
    'Latest labs:',
    `- ${result(f.hemoglobin, 'Hemoglobin')}.`,
    `- ${result(f.platelets, 'Platelets')}.`,
    `- ${result(f.creatinine, 'Creatinine')}.`,
    '',
    'Recommendations:',
    '- Decide on extended-phase anticoagulation at the visit, weighing recurrence against bleeding risk (CHEST 2021).',
    '- No orders were changed.',
  ].join('\n');
  await fhir.create(clinicalNote({ patient, author: task.requester.reference, date: now, description: 'Hematology e-consult: VTE anticoagulation review', title: 'Hematology e-consult', text }));
  await finish(JSON.stringify({
    diagnosed: onsetDate(f.dvt), anticoagulant: f.drug, started: f.started, stopped: f.stopped ?? null,
    currentlyAnticoagulated: f.active, monthsTreated: months,
  }));
}
