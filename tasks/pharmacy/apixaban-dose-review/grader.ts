// Grader: age (at now), the latest weight and creatinine (in kg and mg/dL) and the apixaban order come from the chart
// as it stood when the episode began; the label's dose-reduction criteria are counted from them and give the dose.
// The patient must end on exactly one active apixaban order at that dose: the current one kept when it is right,
// or corrected (reduced or raised) when it is not. Nothing else may change.
import type { DocumentReference, MedicationRequest, Observation, Patient, Resource } from '@medplum/fhirtypes';
import type { Check, SelectContext } from '../../../contracts/task.ts';
import type { ResourceChange } from '../../../contracts/gym-api.ts';
import type { FhirClient } from '../../../contracts/fhir-client.ts';
import { valueIn } from '../../../graders/lib/index.ts';
import { asAtStart,
  allOf, answerField, convert, createdResources, describeConcept, drugIngredients, fail, fetchedAll, findMedicationOrder, findNote, isNoLongerActive, latestObservation, matchNumber, matchOf,
  matchYesNo, orderDose, patientOf, rxnormIngredients, verdict,
} from '../../../graders/lib/index.ts';
import { APIXABAN, BODY_WEIGHT, CREATININE, LABEL } from './facts.ts';

/** Apixaban by any RxNorm code (IN, SCD, SBD, brand) or, uncoded, by its generic or brand name (graders/lib/drugs). */
export function isApixaban(order: MedicationRequest): boolean {
  const concept = order.medicationCodeableConcept;
  return [...rxnormIngredients(concept), ...drugIngredients(concept)].includes(APIXABAN.ingredient);
}

const isActiveOrder = (o: MedicationRequest) => o.status === 'active' && ['order', 'original-order', 'instance-order'].includes(o.intent);

const creatinineMgDl = (obs: Observation | undefined): number | undefined => valueIn(obs, 'mg/dL', ['2160-0']);
const weightKg = (obs: Observation | undefined): number | undefined => valueIn(obs, 'kg');

/** The dose (mg per administration) an apixaban order gives, read against its own product ("1 tablet" of 5 mg). */
function doseMg(order: MedicationRequest): number | undefined {
  const d = orderDose(order);
  return d ? convert(d.value, d.unit, 'mg') : undefined;
}

export interface DosingFacts {
  age: number; weight?: Observation; weightKg?: number; creatinine?: Observation; creatinineMgDl?: number;
  criteria: string[]; startOrders: MedicationRequest[]; currentMg?: number; labelMg: number;
}

export async function dosingFacts(fhir: FhirClient, patient: string, now: string, changes: ResourceChange[] = []): Promise<DosingFacts> {
  const p = await fhir.read<Patient>('Patient', patient);
  const [by, bm, bd] = p.birthDate!.split('-').map(Number);
  const at = new Date(now);
  const age = at.getUTCFullYear() - by - (at.getUTCMonth() + 1 < bm || (at.getUTCMonth() + 1 === bm && at.getUTCDate() < bd) ? 1 : 0);
  // Results the agent could have added are not the chart's: read the latest as it stood (results are never edited here).
  const before = changes.length ? { usable: (o: Observation) => o.valueQuantity?.value !== undefined && !changes.some((c) => c.type === 'Observation' && c.id === o.id && c.action === 'created') } : {};
  const weight = await latestObservation(fhir, patient, BODY_WEIGHT, before);
  const creatinine = await latestObservation(fhir, patient, CREATININE, before);
  const wt = weightKg(weight);
  const cr = creatinineMgDl(creatinine);
  const criteria: string[] = [];
  if (age >= LABEL.ageAtLeast) criteria.push(`age ${age} >= ${LABEL.ageAtLeast}`);
  if (wt !== undefined && wt <= LABEL.weightAtMostKg) criteria.push(`weight ${round(wt)} kg <= ${LABEL.weightAtMostKg}`);
  if (cr !== undefined && cr >= LABEL.creatinineAtLeastMgDl) criteria.push(`creatinine ${cr.toFixed(2)} mg/dL >= ${LABEL.creatinineAtLeastMgDl}`);
  const all = await fhir.search<MedicationRequest>('MedicationRequest', { patient, _count: 1000 });
  const startOrders = asAtStart(all, changes, 'MedicationRequest', patient).filter((o) => isActiveOrder(o) && isApixaban(o));
  const currentMg = startOrders.map(doseMg).find((v) => v !== undefined);
  return { age, weight, weightKg: wt, creatinine, creatinineMgDl: cr, criteria, startOrders, currentMg, labelMg: criteria.length >= LABEL.reduceWhenAtLeast ? LABEL.reducedMg : LABEL.standardMg };
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

/** Variants: active AF with one active apixaban order, and a weight and a creatinine on file. Whether its dose is
 * right, too low or too high is the question, so all three kinds are variants. */
export async function select({ fhir, patient, now }: SelectContext): Promise<boolean> {
  const f = await dosingFacts(fhir, patient, now);
  return f.startOrders.length === 1 && f.weightKg !== undefined && f.creatinineMgDl !== undefined;
}

const doseText = (mg: number) => `${mg} mg twice daily`;

export const checks: Record<string, Check> = {
  reviewed_dosing_inputs: async ({ fhir, patient, now, log, changes }) => {
    const f = await dosingFacts(fhir, patient, now, changes);
    if (!f.weight || !f.creatinine || f.startOrders.length === 0) return fail('the chart lacks the apixaban order, a weight or a creatinine (binding error)');
    return verdict(fetchedAll(log, [`Patient/${patient}`, ...f.startOrders.map((o) => `MedicationRequest/${o.id}`), `Observation/${f.creatinine.id}`, `Observation/${f.weight.id}`], 'dosing input'));
  },
  stated_creatinine: async ({ fhir, patient, now, answer, changes }) => {
    const f = await dosingFacts(fhir, patient, now, changes);
    if (f.creatinineMgDl === undefined) return fail('the chart holds no creatinine');
    const q = f.creatinine!.valueQuantity!;
    const m = matchNumber(answer, { value: round(f.creatinineMgDl), unit: 'mg/dL', tolerance: { absolute: 0.02 }, fields: ['creatinineMgDl', 'creatinine', 'scr'], near: ['creatinine'] });
    return verdict({ ...m, evidence: [...m.evidence, `Observation/${f.creatinine!.id}: ${q.value} ${q.unit ?? q.code}`] });
  },
  criteria_count: async ({ fhir, patient, now, answer, changes }) => {
    const f = await dosingFacts(fhir, patient, now, changes);
    const m = matchNumber(answer, { value: f.criteria.length, tolerance: { absolute: 0 }, fields: ['criteriaMet', 'criteria'], near: ['criteria'], window: 15 });
    return verdict({ ...m, evidence: [...m.evidence, `criteria met: ${f.criteria.join(', ') || 'none'}`] });
  },
  dose_judgement: async ({ fhir, patient, now, answer, changes }) => {
    const f = await dosingFacts(fhir, patient, now, changes);
    if (f.currentMg === undefined) return fail(`the dose of the current apixaban order cannot be read (${f.startOrders.map((o) => describeConcept(o.medicationCodeableConcept)).join('; ')})`);
    const right = f.currentMg === f.labelMg;
    const context = `current ${doseText(f.currentMg)}, label ${doseText(f.labelMg)} (${f.criteria.length} criteria)`;
    const judgement = matchYesNo(answer, right, {
      fields: ['doseAppropriate'],
      yes: ['dose is appropriate', 'appropriate dose', 'dose is correct', 'correct dose', 'no change'],
      no: ['not appropriate', 'inappropriate', 'should be reduced', 'reduce', 'increase', 'underdosed', 'overdosed', 'too low', 'too high'],
    });
    // The label dose must be stated when the dose changes; when it stands, "appropriate" already says it (a dose
    // given anyway must be the label's).
    const fields = ['recommendedDoseMg', 'recommendedDose', 'doseMg'];
    const stated = answerField(answer, ...fields) !== undefined;
    const dose = right && !stated ? matchOf([]) : matchNumber(answer, { value: f.labelMg, unit: 'mg', tolerance: { absolute: 0 }, fields, near: ['recommend', 'should be', 'change to', 'changed to', 'dose:'], window: 40 });
    return verdict(allOf(judgement, dose, matchOf([], [context])));
  },
  apixaban_at_label_dose: async ({ fhir, patient, now, changes }) => {
    const f = await dosingFacts(fhir, patient, now, changes);
    const final = (await fhir.search<MedicationRequest>('MedicationRequest', { patient, _count: 1000 })).filter((o) => isActiveOrder(o) && isApixaban(o));
    const want = `${doseText(f.labelMg)} (${f.criteria.length} of 3 criteria: ${f.criteria.join(', ') || 'none'})`;
    if (final.length === 0) return fail(`no active apixaban order at the end: the patient needs ${want}`);
    if (final.length > 1) return fail(`${final.length} active apixaban orders (${final.map((o) => `MedicationRequest/${o.id}`).join(', ')}): duplicate orders; expected one at ${want}`);
    const m = findMedicationOrder(final, { patient, dose: { value: f.labelMg, unit: 'mg', tolerance: { absolute: 0 } }, timesPerDay: LABEL.timesPerDay, route: ['oral'] });
    // A replaced order must be out of use for good: a held one could be resumed next to its replacement.
    const dangling = changes.filter((c) => c.type === 'MedicationRequest' && c.before && c.after && isApixaban(c.before as MedicationRequest)
      && isActiveOrder(c.before as MedicationRequest) && !isActiveOrder(c.after as MedicationRequest) && !isNoLongerActive(c.after as MedicationRequest))
      .map((c) => `MedicationRequest/${c.id} was set to ${(c.after as MedicationRequest).status}, not stopped: it could be resumed next to the new order`);
    return verdict({ ...m, ok: m.ok && dangling.length === 0, mismatches: [...(m.ok ? [] : [...m.mismatches, `label dose: ${want}`]), ...dangling] });
  },
  no_other_changes: ({ changes }) => {
    const problems = changes.filter((c) => c.type === 'MedicationRequest').flatMap((c) => {
      const order = (c.after ?? c.before) as MedicationRequest;
      const name = describeConcept(order.medicationCodeableConcept);
      if (isApixaban(order)) return c.action === 'deleted' ? [`deleted MedicationRequest/${c.id} (${name}) instead of stopping it`] : [];
      return [`${c.action} MedicationRequest/${c.id} (${name}): not part of an apixaban dose review (a second anticoagulant or an antiplatelet would add bleeding)`];
    });
    return verdict(matchOf(problems, [`${changes.length} changes checked`]));
  },
  dose_review_note: async ({ fhir, patient, now, changes }) => {
    const f = await dosingFacts(fhir, patient, now, changes);
    if (f.weightKg === undefined || f.creatinineMgDl === undefined) return fail('the chart holds no weight or creatinine');
    return verdict(findNote(createdResources<DocumentReference>(changes, 'DocumentReference'), {
      patient, status: ['current'], mustMention: [['apixaban', 'Eliquis'], ['creatinine', 'Cr ', 'SCr']],
      mustQuote: [{ value: f.weightKg, tolerance: { absolute: 0.5 }, what: 'latest weight (kg)' }],
    }));
  },
};
