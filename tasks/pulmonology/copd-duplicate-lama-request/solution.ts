// Reference solution: reconcile the inhalers, read spirometry, oxygenation and recent visits; when a long-acting
// antimuscarinic is already active, document instead of ordering (adherence and technique first, LAMA+LABA if still
// dyspneic); when none is, start tiotropium 18 mcg once daily as requested (beside a LABA it makes LAMA + LABA, GOLD
// 2024). The LAMA names come from facts.ts; the reading and the decision are this file's own code.
import type { MedicationRequest, Observation, Procedure } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../contracts/task.ts';
import { clinicalNote, CONSULT_NOTE, effectiveTime } from '../../../graders/lib/index.ts';
import { conceptIs, ingredientNamesOf } from '../../../graders/lib/drug-classes.ts';
import { COPD, LAMA_DOSING, RXNORM, SNOMED, SPIROMETRY } from './facts.ts';

const drugName = (o: MedicationRequest) => o.medicationCodeableConcept?.text ?? o.medicationCodeableConcept?.coding?.[0]?.display ?? 'inhaler';

export default async function solution({ fhir, patient, now, task, finish }: SolutionContext): Promise<void> {
  await fhir.read('Patient', patient);
  await fhir.search('Condition', { patient, 'clinical-status': 'active' });
  await fhir.search('AllergyIntolerance', { patient });
  const active = (await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' })).filter((o) => o.status === 'active');
  const procedures = await fhir.search<Procedure>('Procedure', { patient, code: `${SPIROMETRY.system}|${SPIROMETRY.code}` });
  const spiro = procedures.filter((p) => p.status === 'completed' && /FEV1\/FVC/i.test((p.note ?? []).map((n) => n.text).join(' ')))
    .sort((a, b) => Date.parse(b.performedDateTime ?? '') - Date.parse(a.performedDateTime ?? ''))[0]!;
  await fhir.read('Procedure', spiro.id!);
  const spo2 = await fhir.search<Observation>('Observation', { patient, code: 'http://loinc.org|2708-6', _sort: '-date', _count: 5 });
  await fhir.search('Observation', { patient, code: 'http://loinc.org|711-2', _sort: '-date', _count: 3 });
  await fhir.search('Encounter', { patient, _sort: '-date', _count: 5 });
  await fhir.search('DocumentReference', { patient, _sort: '-date', _count: 3 });

  const spiroText = (spiro.note ?? []).map((n) => n.text).join(' ');
  const fev1 = /FEV1\s*([0-9]+)%\s*predicted/i.exec(spiroText)?.[1];
  const ratio = /FEV1\/FVC\s*([0-9.]+)/i.exec(spiroText)?.[1];
  const sat = spo2.filter((o) => o.valueQuantity?.value !== undefined).sort((a, b) => Date.parse(effectiveTime(b)) - Date.parse(effectiveTime(a)))[0];
  const lamas = active.filter((o) => ingredientNamesOf(o.medicationCodeableConcept).some((n) => LAMA_DOSING[n]));
  const spirometryLine = `Spirometry (${(spiro.performedDateTime ?? '').slice(0, 10)}): FEV1 ${fev1}% predicted, FEV1/FVC ${ratio}.${sat ? ` Latest SpO2 ${sat.valueQuantity!.value}%.` : ''}`;

  if (lamas.length > 0) {
    const existing = lamas.map((o) => `${drugName(o)} (active since ${(o.authoredOn ?? '').slice(0, 4)})`).join('; ');
    const text = [
      'PULMONARY E-CONSULT NOTE',
      'Question: start tiotropium 18 mcg daily for persistent dyspnea in COPD.',
      `Medication reconciliation: the patient already takes a long-acting antimuscarinic: ${existing}. Tiotropium would duplicate it; not ordered.`,
      spirometryLine,
      'Recommendations: confirm the patient is actually using the long-acting inhaler and check inhaler technique; if dyspnea persists despite adherent use, escalate to LAMA+LABA (GOLD 2024). Pulmonary rehabilitation referral.',
    ].join('\n');
    await fhir.create(clinicalNote({ type: CONSULT_NOTE, patient, author: task.requester.reference, date: now, description: 'Pulmonary e-consult: tiotropium request', title: 'Pulmonary e-consult', text }));
    await finish(`Did not order tiotropium: the patient is already on ${existing}, a long-acting antimuscarinic; a second LAMA would be a duplicate. Recommend adherence and inhaler technique check, then LAMA+LABA if still dyspneic. Note filed (FEV1 ${fev1}% predicted, FEV1/FVC ${ratio}).`);
    return;
  }
  const order: MedicationRequest = {
    resourceType: 'MedicationRequest', status: 'active', intent: 'order',
    medicationCodeableConcept: { coding: [{ system: RXNORM, code: '69120', display: 'tiotropium' }], text: 'tiotropium 18 mcg inhalation capsule (HandiHaler)' },
    subject: { reference: `Patient/${patient}` }, authoredOn: now, requester: { reference: task.requester.reference },
    reasonCode: [{ coding: [{ system: SNOMED, code: COPD.code, display: COPD.display }] }],
    dosageInstruction: [{
      text: 'Inhale the contents of one 18 mcg capsule once daily with the HandiHaler',
      timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd' } },
      route: { coding: [{ system: SNOMED, code: '447694001', display: 'Respiratory tract route' }] },
      doseAndRate: [{ doseQuantity: { value: 18, unit: 'mcg', system: 'http://unitsofmeasure.org', code: 'ug' } }],
    }],
  };
  await fhir.create(order);
  const others = active.filter((o) => !conceptIs(o.medicationCodeableConcept, 'albuterol') && conceptIs(o.medicationCodeableConcept, 'laba'));
  const text = [
    'PULMONARY E-CONSULT NOTE',
    'Question: start tiotropium 18 mcg daily for persistent dyspnea in COPD.',
    `Medication reconciliation: no long-acting antimuscarinic on the list${others.length ? `; on ${others.map(drugName).join(', ')} (LABA)` : ''}; albuterol as needed.`,
    spirometryLine,
    `Plan: started tiotropium 18 mcg inhaled once daily${others.length ? ' (LAMA + LABA with the current LABA)' : ''}; keep albuterol as needed. Inhaler technique teaching; review in 6-8 weeks; pulmonary rehabilitation.`,
  ].join('\n');
  await fhir.create(clinicalNote({ type: CONSULT_NOTE, patient, author: task.requester.reference, date: now, description: 'Pulmonary e-consult: tiotropium request', title: 'Pulmonary e-consult', text }));
  await finish(`Started tiotropium 18 mcg inhaled once daily: no long-acting antimuscarinic on the list${others.length ? ', added to the current LABA' : ''}. Albuterol continues as needed. Note filed (FEV1 ${fev1}% predicted, FEV1/FVC ${ratio}).`);
}
