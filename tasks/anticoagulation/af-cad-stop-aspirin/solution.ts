// Reference solution: review the AF and coronary history (last stent > 12 months ago), the antithrombotic orders and
// bleeding-relevant labs, then stop aspirin and keep the anticoagulant (2023 ACC/AHA AF guideline, AFIRE).
import type { MedicationRequest } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../harness/types.ts';
import { isAnticoagulant, isAspirin, procedureTime, stents } from './grader.ts';

const FLOWSHEET = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';

export default async function solution({ fhir, patient, finish }: SolutionContext): Promise<void> {
  await fhir.read('Patient', patient);
  await fhir.search('Condition', { patient, 'clinical-status': 'active' });
  await fhir.search('Condition', { patient, code: 'http://snomed.info/sct|53741008' });
  await fhir.search('AllergyIntolerance', { patient });
  const active = await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  await fhir.search('MedicationRequest', { patient, code: 'http://www.nlm.nih.gov/research/umls/rxnorm|1191' });
  const pci = await stents(fhir, patient);
  await fhir.search('Procedure', { patient, code: 'http://snomed.info/sct|40701008' });
  await fhir.search('Observation', { patient, code: `http://loinc.org|718-7,${FLOWSHEET}|HGB`, _sort: '-date', _count: 10 });
  await fhir.search('Observation', { patient, code: `http://loinc.org|777-3,${FLOWSHEET}|PLT`, _sort: '-date', _count: 5 });
  await fhir.search('Observation', { patient, code: `http://loinc.org|33914-3,${FLOWSHEET}|EGFR`, _sort: '-date', _count: 5 });
  await fhir.search('Observation', { patient, code: `http://loinc.org|2160-0,${FLOWSHEET}|CREAT`, _sort: '-date', _count: 5 });
  await fhir.search('Encounter', { patient, _sort: '-date', _count: 10 });
  await fhir.search('DocumentReference', { patient, _sort: '-date', _count: 5 });

  const anticoagulant = active.find(isAnticoagulant)!;
  const oacText = anticoagulant.medicationCodeableConcept?.text ?? 'oral anticoagulant';
  for (const order of active.filter(isAspirin)) {
    await fhir.read('MedicationRequest', order.id!);
    await fhir.patch('MedicationRequest', order.id!, [
      { op: 'replace', path: '/status', value: 'stopped' },
      { op: 'add', path: '/statusReason', value: { text: `On anticoagulation (${oacText}) for AF; stable CAD > 12 months after PCI: oral anticoagulant monotherapy, aspirin stopped to reduce bleeding risk` } },
    ]);
  }
  await finish(JSON.stringify({
    stopAspirin: true,
    lastStentDate: pci[0] ? procedureTime(pci[0]).slice(0, 10) : null,
    anticoagulant: `${oacText}, ${anticoagulant.dosageInstruction?.[0]?.text ?? ''}`.trim(),
    rationale: 'AF with chronic coronary disease more than 12 months after stenting: anticoagulant alone (2023 ACC/AHA AF guideline; AFIRE). Continue the anticoagulant unchanged.',
  }));
}
