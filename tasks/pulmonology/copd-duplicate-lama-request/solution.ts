// Reference solution: reconcile the inhalers (tiotropium is already active), read spirometry, oxygenation and recent
// visits, then document instead of ordering: adherence and technique first, LAMA+LABA if still dyspneic (GOLD 2024).
import type { MedicationRequest, Observation, Procedure } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../harness/types.ts';
import { clinicalNote, effectiveTime, isMedication } from '../../../graders/lib/index.ts';
import { latestSpirometry, spirometryValues, TIOTROPIUM } from './grader.ts';

export default async function solution({ fhir, patient, now, task, finish }: SolutionContext): Promise<void> {
  await fhir.read('Patient', patient);
  await fhir.search('Condition', { patient, 'clinical-status': 'active' });
  await fhir.search('AllergyIntolerance', { patient });
  const active = await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  await fhir.search('MedicationRequest', { patient, code: 'http://www.nlm.nih.gov/research/umls/rxnorm|69120' });
  await fhir.search<Procedure>('Procedure', { patient, code: 'http://snomed.info/sct|127783003' });
  const spiro = (await latestSpirometry(fhir, patient))!;
  await fhir.read('Procedure', spiro.id!);
  const spo2 = await fhir.search<Observation>('Observation', { patient, code: 'http://loinc.org|2708-6', _sort: '-date', _count: 5 });
  await fhir.search('Observation', { patient, code: 'http://loinc.org|72166-2', _sort: '-date', _count: 1 });
  await fhir.search('DiagnosticReport', { patient, category: 'RAD' });
  await fhir.search('Immunization', { patient, _sort: '-date' });
  await fhir.search('Encounter', { patient, _sort: '-date', _count: 5 });
  await fhir.search('DocumentReference', { patient, _sort: '-date', _count: 3 });
  await fhir.search('CarePlan', { patient, status: 'active' });

  const tio = active.filter((o) => isMedication(o.medicationCodeableConcept, TIOTROPIUM));
  const since = tio.map((o) => (o.authoredOn ?? '').slice(0, 10)).sort()[0];
  const { fev1, ratio } = spirometryValues(spiro);
  const sat = spo2.filter((o) => o.valueQuantity?.value !== undefined).sort((a, b) => Date.parse(effectiveTime(b)) - Date.parse(effectiveTime(a)))[0];
  const text = [
    'PULMONARY E-CONSULT NOTE',
    `Question: start tiotropium 18 mcg daily for persistent dyspnea in COPD.`,
    `Medication reconciliation: tiotropium 18 mcg inhaled once daily is already an active order (prescribed ${since}); albuterol MDI as needed. A new tiotropium order would duplicate the existing LAMA - not ordered.`,
    `Spirometry (${(spiro.performedDateTime ?? '').slice(0, 10)}): FEV1 ${fev1}% predicted, FEV1/FVC ${ratio}.${sat ? ` Latest SpO2 ${sat.valueQuantity!.value}%.` : ''}`,
    'Recommendations: confirm the patient is actually taking tiotropium and check inhaler technique; if dyspnea persists despite adherent LAMA use, escalate to LAMA+LABA (GOLD 2024). Pulmonary rehabilitation referral; vaccinations up to date.',
  ].join('\n');
  await fhir.create(clinicalNote({ patient, author: task.requester.reference, date: now, description: 'Pulmonary e-consult: tiotropium request', title: 'Pulmonary e-consult', text }));
  await finish(`Did not order tiotropium: the patient already has an active tiotropium order (since ${since}); a second LAMA would be a duplicate. Recommend adherence/inhaler technique check, then LAMA+LABA if still dyspneic. Note filed (FEV1 ${fev1}% predicted, FEV1/FVC ${ratio}).`);
}
