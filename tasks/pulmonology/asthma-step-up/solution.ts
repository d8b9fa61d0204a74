// Reference solution: reconcile inhalers, read the latest Asthma Control Test, the inhaled corticosteroid's pharmacy
// fills, the visit note and the spirometry; then follow GINA 2024: not well controlled despite adherence -> stop
// fluticasone alone and start fluticasone propionate/salmeterol 250/50 (Track 2 step 4, albuterol stays); poor
// adherence -> no step up, address adherence and technique; well controlled -> continue. An old spirometry is
// recommended for repeat. Thresholds come from facts.ts; the reading and the decision are this file's own code.
import type { MedicationDispense, MedicationRequest, Observation, Procedure } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../contracts/task.ts';
import { clinicalNote, conceptIs } from '../../../graders/lib/index.ts';
import {
  ACT_TOTAL, ACT_WELL_CONTROLLED_MIN, ADHERENCE_WINDOW_DAYS, ADHERENT_PDC, ASTHMA, SNOMED, SPIROMETRY, SPIROMETRY_CURRENT_DAYS,
} from './facts.ts';

const DAY = 86_400_000;
/** The order's or dispense's drug is `id` (an ingredient or class), by any code, brand or name (graders/lib). */
const is = (o: { medicationCodeableConcept?: MedicationRequest['medicationCodeableConcept'] }, id: string) => conceptIs(o.medicationCodeableConcept, id);

/** Share of the last ADHERENCE_WINDOW_DAYS days covered by fluticasone fills (days supply from each hand-over). */
function daysCovered(fills: MedicationDispense[], now: string): number {
  const end = Date.parse(now);
  const start = end - ADHERENCE_WINDOW_DAYS * DAY;
  const days = new Set<number>();
  for (const f of fills) {
    const t0 = Date.parse(f.whenHandedOver ?? '');
    for (let i = 0; i < (f.daysSupply?.value ?? 0); i++) {
      const t = t0 + i * DAY;
      if (t >= start && t < end) days.add(Math.floor((t - start) / DAY));
    }
  }
  return days.size / ADHERENCE_WINDOW_DAYS;
}

export default async function solution({ fhir, patient, now, task, finish }: SolutionContext): Promise<void> {
  await fhir.read('Patient', patient);
  await fhir.search('Condition', { patient, 'clinical-status': 'active' });
  await fhir.search('AllergyIntolerance', { patient });
  const active = (await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' })).filter((o) => o.status === 'active');
  const acts = await fhir.search<Observation>('Observation', { patient, code: `${ACT_TOTAL.system}|${ACT_TOTAL.code}`, _sort: '-date' });
  // A result marked entered-in-error was never a result (FHIR R4 Observation.status).
  const act = acts.filter((o) => o.status !== 'entered-in-error' && o.valueQuantity?.value !== undefined).sort((a, b) => Date.parse(b.effectiveDateTime ?? '') - Date.parse(a.effectiveDateTime ?? ''))[0]!;
  const fills = (await fhir.search<MedicationDispense>('MedicationDispense', { patient })).filter((d) => d.status === 'completed' && is(d, 'fluticasone'));
  await fhir.search('DocumentReference', { patient, _sort: '-date', _count: 3 });
  await fhir.search('Encounter', { patient, _sort: '-date', _count: 5 });
  const spiro = (await fhir.search<Procedure>('Procedure', { patient, code: `${SPIROMETRY.system}|${SPIROMETRY.code}` }))
    .filter((p) => p.status === 'completed' && /FEV1/i.test((p.note ?? []).map((n) => n.text).join(' ')))
    .sort((a, b) => Date.parse(b.performedDateTime ?? '') - Date.parse(a.performedDateTime ?? ''))[0]!;
  await fhir.read('Procedure', spiro.id!);

  const score = act.valueQuantity!.value!;
  const pdc = daysCovered(fills, now);
  const fev1 = /FEV1\s*([0-9.]+)\s*%\s*predicted/i.exec((spiro.note ?? []).map((n) => n.text).join(' '))![1];
  const spiroDate = (spiro.performedDateTime ?? '').slice(0, 10);
  const current = Date.parse(now) - Date.parse(spiro.performedDateTime ?? '') <= SPIROMETRY_CURRENT_DAYS * DAY;
  const lungFunction = current
    ? `Spirometry ${spiroDate}: FEV1 ${fev1}% predicted with bronchodilator reversibility.`
    : `Last spirometry is from ${spiroDate} (FEV1 ${fev1}% predicted then), too old to guide treatment: repeat spirometry with bronchodilator is recommended.`;
  const controlled = score >= ACT_WELL_CONTROLLED_MIN;
  const adherence = `fluticasone fills cover ${Math.round(pdc * 100)}% of the last ${ADHERENCE_WINDOW_DAYS} days`;
  const fluticasone = active.filter((o) => is(o, 'fluticasone') && !is(o, 'laba'));
  const note = (lines: string[]) => fhir.create(clinicalNote({ patient, author: task.requester.reference, date: now, description: 'Pulmonary e-consult: asthma controller review', title: 'Pulmonary e-consult', text: ['PULMONARY E-CONSULT NOTE - ASTHMA CONTROLLER REVIEW', ...lines].join('\n') }));

  if (controlled) {
    await note([`Control: ACT ${score} - well controlled; ${adherence}.`, lungFunction, 'Plan: no step up. Continue fluticasone 110 mcg 2 puffs twice daily and albuterol as needed; consider stepping the ICS down after 3 months of stable control. Review in 3 months.']);
    await finish(`Asthma well controlled (ACT ${score}). No step up: continue fluticasone and albuterol as needed.${current ? '' : ' Repeat spirometry recommended (last one ' + spiroDate + ').'}`);
    return;
  }
  if (pdc < ADHERENT_PDC) {
    await note([`Control: ACT ${score} - not well controlled; ${adherence}, and the visit note records poor inhaler technique.`, lungFunction,
      'Plan: no step up yet (GINA: check adherence and technique before stepping up). Continue fluticasone 110 mcg 2 puffs twice daily every day with a spacer; inhaler technique teaching and an adherence plan; review control in 4-6 weeks.']);
    await finish(`Asthma not well controlled (ACT ${score}), but ${adherence} and technique is poor: no step up yet. Continue fluticasone daily with a spacer, technique and adherence teaching, review in 4-6 weeks.${current ? '' : ' Repeat spirometry recommended.'}`);
    return;
  }
  for (const o of fluticasone) {
    await fhir.read('MedicationRequest', o.id!);
    await fhir.patch('MedicationRequest', o.id!, [
      { op: 'replace', path: '/status', value: 'stopped' },
      { op: 'add', path: '/statusReason', value: { text: 'Asthma not well controlled on ICS alone despite adherence: replaced by fluticasone/salmeterol (GINA step 4)' } },
    ]);
  }
  await fhir.create<MedicationRequest>({
    resourceType: 'MedicationRequest', status: 'active', intent: 'order',
    medicationCodeableConcept: { text: 'fluticasone propionate 250 mcg / salmeterol 50 mcg per inhalation dry powder inhaler' },
    subject: { reference: `Patient/${patient}` }, authoredOn: now, requester: { reference: task.requester.reference },
    ...(fluticasone[0] ? { priorPrescription: { reference: `MedicationRequest/${fluticasone[0].id}` } } : {}),
    reasonCode: [{ coding: [{ system: SNOMED, code: ASTHMA.code, display: 'Asthma' }], text: 'Asthma, not well controlled on ICS alone' }],
    dosageInstruction: [{
      text: 'Inhale 1 inhalation twice daily; rinse mouth after use', timing: { repeat: { frequency: 2, period: 1, periodUnit: 'd' } },
      route: { coding: [{ system: SNOMED, code: '447694001', display: 'Respiratory tract route' }] },
      doseAndRate: [{ doseQuantity: { value: 1, unit: 'inhalation' } }],
    }],
  });
  await note([`Control: ACT ${score} - not well controlled despite adherence (${adherence}) and correct technique.`, lungFunction,
    'Plan: step up per GINA 2024 - stop fluticasone alone; start fluticasone propionate/salmeterol 250/50 one inhalation twice daily (medium-dose ICS-LABA). Continue albuterol as needed as reliever. Never use a LABA without an inhaled corticosteroid.',
    'Review control, inhaler technique and exacerbations in 2-3 months.']);
  await finish(`Asthma not well controlled (ACT ${score}) despite adherence: step up per GINA. Stopped fluticasone alone; started fluticasone/salmeterol 250/50 one inhalation twice daily; albuterol continues as reliever.${current ? '' : ` Repeat spirometry recommended (last ${spiroDate}).`} Note filed.`);
}
