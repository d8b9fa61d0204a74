// Reference solution: reconcile inhalers, allergies, spirometry, eosinophils, exacerbation history (prednisone,
// visits), then GINA Track 2 step 4: fluticasone propionate/salmeterol 250/50 one inhalation twice daily replaces
// fluticasone alone (medium-dose ICS-LABA), albuterol stays as reliever; note with the plan and review in 2-3 months.
// The alternative (Track 1, GINA-preferred): budesonide-formoterol 160/4.5 maintenance and reliever therapy.
import type { MedicationRequest } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../harness/types.ts';
import { clinicalNote } from '../../../graders/lib/index.ts';
import { fev1Of, latestSpirometry, startingFluticasone } from './grader.ts';

type Regimen = { text: string; sig: string; perDay: number; dose: number; asNeeded?: string; label: string };

const TRACK2: Regimen = {
  text: 'fluticasone propionate 250 mcg / salmeterol 50 mcg per inhalation dry powder inhaler', label: 'fluticasone propionate/salmeterol 250/50 (medium-dose ICS-LABA, GINA Track 2 step 4)',
  sig: 'Inhale 1 inhalation twice daily; rinse mouth after use', perDay: 2, dose: 1,
};
const TRACK1: Regimen = {
  text: 'budesonide 160 mcg / formoterol 4.5 mcg per actuation metered dose inhaler', label: 'budesonide-formoterol 160/4.5 maintenance and reliever therapy (GINA Track 1 step 4)',
  sig: 'Inhale 2 puffs twice daily and 1 puff as needed for symptoms (maximum 12 puffs a day); rinse mouth after use', perDay: 2, dose: 2,
};

async function stepUp(ctx: SolutionContext, regimen: Regimen): Promise<void> {
  const { fhir, patient, now, task, finish } = ctx;
  await fhir.read('Patient', patient);
  await fhir.search('Condition', { patient, 'clinical-status': 'active' });
  await fhir.search('AllergyIntolerance', { patient });
  await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  await fhir.search('MedicationRequest', { patient, code: 'http://www.nlm.nih.gov/research/umls/rxnorm|8640' });
  await fhir.search('Procedure', { patient, code: 'http://snomed.info/sct|127783003' });
  const spiro = (await latestSpirometry(fhir, patient))!;
  await fhir.read('Procedure', spiro.id!);
  await fhir.search('Observation', { patient, code: 'http://loinc.org|26449-9,http://loinc.org|711-2', _sort: '-date', _count: 3 });
  await fhir.search('Observation', { patient, code: 'http://loinc.org|2708-6', _sort: '-date', _count: 3 });
  await fhir.search('Observation', { patient, code: 'http://loinc.org|72166-2', _sort: '-date', _count: 1 });
  await fhir.search('Immunization', { patient, _sort: '-date' });
  await fhir.search('Encounter', { patient, _sort: '-date', _count: 10 });
  await fhir.search('DocumentReference', { patient, _sort: '-date', _count: 3 });
  await fhir.search('CarePlan', { patient, status: 'active' });

  const start = await startingFluticasone({ fhir, patient, changes: [] });
  const fev1 = fev1Of(spiro)!;
  for (const o of start) {
    await fhir.read('MedicationRequest', o.id!);
    await fhir.patch('MedicationRequest', o.id!, [
      { op: 'replace', path: '/status', value: 'stopped' },
      { op: 'add', path: '/statusReason', value: { text: `Asthma not well controlled on ICS alone: replaced by ${regimen.label}` } },
    ]);
  }
  await fhir.create<MedicationRequest>({
    resourceType: 'MedicationRequest', status: 'active', intent: 'order',
    medicationCodeableConcept: { text: regimen.text },
    subject: { reference: `Patient/${patient}` }, authoredOn: now, requester: { reference: task.requester.reference },
    ...(start[0] ? { priorPrescription: { reference: `MedicationRequest/${start[0].id}` } } : {}),
    reasonCode: [{ coding: [{ system: 'http://snomed.info/sct', code: '195967001', display: 'Asthma' }], text: 'Asthma, not well controlled on ICS alone' }],
    dosageInstruction: [{
      text: regimen.sig, timing: { repeat: { frequency: regimen.perDay, period: 1, periodUnit: 'd' } },
      route: { coding: [{ system: 'http://snomed.info/sct', code: '447694001', display: 'Respiratory tract route' }] },
      doseAndRate: [{ doseQuantity: { value: regimen.dose, unit: 'puff', system: 'http://unitsofmeasure.org', code: '{puff}' } }],
    }],
  });
  const text = [
    'PULMONARY E-CONSULT NOTE - ASTHMA STEP-UP',
    'Control: albuterol 4-5 days/week, night waking about weekly, ACT 15: not well controlled. Technique and adherence confirmed by PCP.',
    `Current controller: fluticasone propionate 110 mcg 2 puffs twice daily (440 mcg/day, medium dose) plus albuterol as needed.`,
    `Spirometry (${(spiro.performedDateTime ?? '').slice(0, 10)}): FEV1 ${fev1}% predicted with bronchodilator reversibility.`,
    `Plan: step up per GINA 2024 - stop fluticasone alone; start ${regimen.label}: ${regimen.sig}.${regimen === TRACK2 ? ' Continue albuterol as needed as reliever.' : ''} Never use a LABA without an inhaled corticosteroid.`,
    'Review control, inhaler technique and exacerbations in 2-3 months; step down once well controlled for 3 months. Written asthma action plan updated.',
  ].join('\n');
  await fhir.create(clinicalNote({ patient, author: task.requester.reference, date: now, description: 'Pulmonary e-consult: asthma step-up', title: 'Pulmonary e-consult', text }));
  await finish(`Asthma not well controlled on fluticasone alone (FEV1 ${fev1}% predicted): step up per GINA. Stopped fluticasone monotherapy; started ${regimen.label}.${regimen === TRACK2 ? ' Albuterol continues as reliever.' : ''} Review in 2-3 months. Note filed.`);
}

export default async function solution(ctx: SolutionContext): Promise<void> {
  await stepUp(ctx, TRACK2);
}

export const alternativeSolutions = {
  mart: (ctx: SolutionContext) => stepUp(ctx, TRACK1),
};
