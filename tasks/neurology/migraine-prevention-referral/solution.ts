// Reference solution: read the problem list, meds and allergies; choose topiramate 25 mg nightly unless pregnant,
// else propranolol unless asthma or a beta-blocker, else amitriptyline; refer to neurology with the reason (AHS 2021).
import type { Condition, MedicationRequest, ServiceRequest } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../contracts/task.ts';
import { classesOfOrder, conceptIs } from '../../../graders/lib/index.ts';
import { ASTHMA, BETA_BLOCKER_CLASS, EXTRA_BETA_BLOCKERS, PREGNANCY } from './facts.ts';

const rx = (code: string, name: string) => ({ coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code, display: name }], text: name });

export default async function solution({ fhir, patient, now, task, finish }: SolutionContext): Promise<void> {
  await fhir.read('Patient', patient);
  const problems = await fhir.search<Condition>('Condition', { patient, 'clinical-status': 'active' });
  await fhir.search('AllergyIntolerance', { patient });
  const active = await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  await fhir.search('MedicationRequest', { patient, code: 'http://www.nlm.nih.gov/research/umls/rxnorm|37418' });
  await fhir.search('Observation', { patient, code: 'http://loinc.org|85354-9', _sort: '-date', _count: 3 });
  await fhir.search('Observation', { patient, code: 'http://loinc.org|8867-4', _sort: '-date', _count: 3 });
  await fhir.search('Observation', { patient, code: 'http://loinc.org|39156-5', _sort: '-date', _count: 3 });
  await fhir.search('Observation', { patient, code: 'http://loinc.org|33914-3', _sort: '-date', _count: 3 });
  await fhir.search('Observation', { patient, code: 'http://loinc.org|44261-6', _sort: '-date', _count: 3 });
  await fhir.search('Encounter', { patient, _sort: '-date', _count: 5 });
  await fhir.search('DocumentReference', { patient, _sort: '-date', _count: 3 });
  await fhir.search('ServiceRequest', { patient, category: 'http://snomed.info/sct|386053000' });

  const hasProblem = (set: typeof ASTHMA) => problems.some((c) => (c.code?.coding ?? []).some((x) => set.some((s) => s.system === x.system && s.codes.includes(x.code ?? ''))));
  const onBeta = active.some((o) => classesOfOrder(o).includes(BETA_BLOCKER_CLASS) || EXTRA_BETA_BLOCKERS.some((n) => conceptIs(o.medicationCodeableConcept, n)));
  let choice: { code: string; name: string; dose: number; sig: string; why: string };
  if (!hasProblem(PREGNANCY)) choice = { code: '38404', name: 'topiramate', dose: 25, sig: 'Take 25 mg by mouth at bedtime; increase by 25 mg weekly toward 50 mg twice daily as tolerated', why: 'first-line (level A); not pregnant' };
  else if (!hasProblem(ASTHMA) && !onBeta) choice = { code: '8787', name: 'propranolol', dose: 40, sig: 'Take 40 mg by mouth once daily', why: 'level A; no asthma' };
  else choice = { code: '704', name: 'amitriptyline', dose: 10, sig: 'Take 10 mg by mouth at bedtime', why: 'level B; avoids beta-blocker and teratogens' };

  await fhir.create<MedicationRequest>({
    resourceType: 'MedicationRequest', status: 'active', intent: 'order', medicationCodeableConcept: rx(choice.code, choice.name),
    subject: { reference: `Patient/${patient}` }, authoredOn: now, requester: { reference: task.requester.reference },
    reasonCode: [{ coding: [{ system: 'http://snomed.info/sct', code: '37796009', display: 'Migraine' }], text: 'Migraine prevention' }],
    dosageInstruction: [{
      text: choice.sig, timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd' } },
      route: { coding: [{ system: 'http://snomed.info/sct', code: '26643006', display: 'Oral route' }] },
      doseAndRate: [{ doseQuantity: { value: choice.dose, unit: 'mg', system: 'http://unitsofmeasure.org', code: 'mg' } }],
    }],
  });
  await fhir.create<ServiceRequest>({
    resourceType: 'ServiceRequest', status: 'active', intent: 'order', priority: 'routine',
    category: [{ coding: [{ system: 'http://snomed.info/sct', code: '386053000', display: 'Patient referral' }] }],
    code: { coding: [{ system: 'http://snomed.info/sct', code: '3457005', display: 'Patient referral' }], text: 'Referral to neurology headache clinic' },
    performerType: { coding: [{ system: 'http://snomed.info/sct', code: '394591006', display: 'Neurology' }] },
    subject: { reference: `Patient/${patient}` }, authoredOn: now, requester: { reference: task.requester.reference },
    reasonCode: [{ text: 'Migraine 6-8 headache days/month despite sumatriptan; preventive started' }],
  });
  await finish(`Started ${choice.name} ${choice.dose} mg daily for migraine prevention (${choice.why}); continue sumatriptan for attacks, limit to < 10 days/month. Neurology headache clinic referral placed.`);
}
