// Grader: the latest TSH (as the chart stood when the episode began) decides - in range: change nothing; suppressed:
// lower the dose; clearly high: raise it (ATA 2014) - and the patient must end on exactly one active levothyroxine
// order at a dose that carries out that decision. Answer and note are judged on what they decide, not on keywords.
import type { DocumentReference, MedicationRequest, Observation, Resource } from '@medplum/fhirtypes';
import type { Check, SelectContext } from '../../../contracts/task.ts';
import type { ResourceChange } from '../../../contracts/gym-api.ts';
import type { FhirClient } from '../../../contracts/fhir-client.ts';
import {
  allOf, answerField, createdResources, dailyDose, describeConcept, drugIngredients, effectiveTime, fail, fetchedAll, isNoLongerActive, latestObservation,
  matchDate, matchNote, matchNumber, matchOf, matchYesNo, noteText, patientOf, quantityOf, rxnormIngredients, verdict, type Match,
} from '../../../graders/lib/index.ts';
import { LEVOTHYROXINE, STEP_MCG, TSH, ZONES, type Decision } from './facts.ts';

/** Levothyroxine by any RxNorm code (IN, SCD, SBD, brand) or, uncoded, by its generic or brand name. */
export function isLevothyroxine(order: MedicationRequest): boolean {
  const concept = order.medicationCodeableConcept;
  return [...rxnormIngredients(concept), ...drugIngredients(concept)].includes(LEVOTHYROXINE.ingredient);
}

const isActiveOrder = (o: MedicationRequest) => o.status === 'active' && ['order', 'original-order', 'instance-order'].includes(o.intent);
const mcgPerDay = (o: MedicationRequest) => dailyDose(o, 'mcg');

/** The patient's resources of a type before the agent acted (changed ones as they were, created ones left out). */
function asAtStart<T extends Resource>(now: T[], changes: ResourceChange[], type: string, patient: string): T[] {
  const touched = changes.filter((c) => c.type === type);
  const ids = new Set(touched.map((c) => c.id));
  return [...now.filter((r) => !ids.has(r.id!)), ...touched.map((c) => c.before as T | null).filter((r): r is T => !!r && patientOf(r) === patient)];
}

export interface ThyroidFacts { tsh?: Observation; tshValue?: number; ageDays?: number; decision?: Decision; startOrders: MedicationRequest[]; startMcg?: number }

/** The decision a TSH supports, or undefined in a zone where either choice is defensible (never a variant). */
export function decisionFor(tsh: number): Decision | undefined {
  if (tsh < ZONES.suppressedBelow) return 'reduce';
  if (tsh >= ZONES.inRange.low && tsh <= ZONES.inRange.high) return 'no-change';
  if (tsh >= ZONES.clearlyHighFrom) return 'increase';
  return undefined;
}

export async function thyroidFacts(fhir: FhirClient, patient: string, now: string, changes: ResourceChange[] = []): Promise<ThyroidFacts> {
  const created = new Set(changes.filter((c) => c.type === 'Observation' && c.action === 'created').map((c) => c.id));
  const tsh = await latestObservation(fhir, patient, TSH, { usable: (o) => o.valueQuantity?.value !== undefined && !created.has(o.id!) });
  const tshValue = quantityOf(tsh)?.value;
  const all = await fhir.search<MedicationRequest>('MedicationRequest', { patient, _count: 1000 });
  const startOrders = asAtStart(all, changes, 'MedicationRequest', patient).filter((o) => isActiveOrder(o) && isLevothyroxine(o));
  const ageDays = tsh ? (Date.parse(now) - Date.parse(effectiveTime(tsh))) / 86_400_000 : undefined;
  return {
    tsh, tshValue, ageDays, startOrders, startMcg: startOrders.length === 1 ? mcgPerDay(startOrders[0]) : undefined,
    decision: tshValue === undefined ? undefined : decisionFor(tshValue),
  };
}

/** Variants: one active levothyroxine order of readable dose, and a TSH of the last year in a zone with one answer. */
export async function select({ fhir, patient, now }: SelectContext): Promise<boolean> {
  const f = await thyroidFacts(fhir, patient, now);
  return f.startOrders.length === 1 && f.startMcg !== undefined && f.decision !== undefined && (f.ageDays ?? Infinity) <= ZONES.maxAgeDays;
}

/** The daily doses (mcg) that carry out the decision. */
function acceptable(decision: Decision, startMcg: number): { ok: (mcg: number) => boolean; text: string } {
  if (decision === 'no-change') return { ok: (mcg) => Math.abs(mcg - startMcg) < 0.5, text: `unchanged at ${startMcg} mcg/day` };
  const sign = decision === 'increase' ? 1 : -1;
  const [a, b] = [startMcg + sign * STEP_MCG.min, startMcg + sign * STEP_MCG.max].sort((x, y) => x - y);
  return { ok: (mcg) => mcg > 0 && mcg >= a - 0.5 && mcg <= b + 0.5, text: `${decision === 'increase' ? 'raised' : 'lowered'} by ${STEP_MCG.min}-${STEP_MCG.max} mcg/day from ${startMcg} (${a}-${b} mcg/day)` };
}

const whyText = (f: ThyroidFacts) => `latest TSH ${f.tshValue} mIU/L (${f.tsh ? effectiveTime(f.tsh).slice(0, 10) : '?'}): ${f.decision}`;

/** Phrases that state the dose decision, read in context ("I would not increase it" is a no). */
const INCREASE_PHRASES = {
  yes: ['increase the dose', 'increase the levothyroxine', 'increase levothyroxine', 'increasing levothyroxine', 'increasing the dose', 'dose increase', 'increase to', 'increased to',
    'increase it', 'increased the dose', 'increased levothyroxine', 'increased the levothyroxine', 'increased it', 'raise the dose', 'raise levothyroxine', 'raised to', 'uptitrate', 'titrate up', 'higher dose'],
  no: ['no change', 'no dose change', 'unchanged', 'do not increase', "don't increase", 'not increase', 'not be increased', 'continue the current dose', 'continue current dose',
    'keep the current dose', 'same dose', 'reduce', 'reduced', 'decrease', 'decreased', 'lower the dose', 'lowered', 'no increase', 'not indicated'],
};

/**
 * The note without the sentences that report the request ("pt asks to increase levothyroxine"): the request is not
 * the note's decision. (The text layer's yes/no phrase votes do not yet tell reported speech apart; its direction
 * reader does, but only about a named drug, and the decision here is about the dose, not the drug.)
 */
function withoutReportedRequest(text: string): string {
  return text.split(/(?<=[.!?\n])\s+/).filter((s) => !/\b(request(s|ed)?|asks?|asking|asked|wants?|wanted|would like|wondering|c\/o)\b/i.test(s)).join(' ');
}

async function finalOrders(fhir: FhirClient, patient: string): Promise<MedicationRequest[]> {
  return (await fhir.search<MedicationRequest>('MedicationRequest', { patient, _count: 1000 })).filter((o) => isActiveOrder(o) && isLevothyroxine(o));
}

export const checks: Record<string, Check> = {
  reviewed_tsh: async ({ fhir, patient, now, log, changes }) => {
    const f = await thyroidFacts(fhir, patient, now, changes);
    if (!f.tsh) return fail('the chart holds no TSH');
    return verdict(fetchedAll(log, [`Observation/${f.tsh.id}`], 'latest TSH'));
  },
  reviewed_levothyroxine_order: async ({ fhir, patient, now, log, changes }) => {
    const f = await thyroidFacts(fhir, patient, now, changes);
    if (f.startOrders.length === 0) return fail('no active levothyroxine order at the start (binding error)');
    return verdict(fetchedAll(log, f.startOrders.map((o) => `MedicationRequest/${o.id}`), 'levothyroxine order'));
  },
  stated_tsh_and_dose: async ({ fhir, patient, now, answer, changes }) => {
    const f = await thyroidFacts(fhir, patient, now, changes);
    if (!f.tsh || f.tshValue === undefined || f.startMcg === undefined) return fail('the chart lacks a TSH or a readable levothyroxine dose');
    const when = effectiveTime(f.tsh);
    // The local date written in the result or its UTC date both count.
    const dates = [...new Set([when.slice(0, 10), new Date(Date.parse(when)).toISOString().slice(0, 10)])];
    const dateMatches = dates.map((d) => matchDate(answer, d, { fields: ['tshDate', 'date'], near: ['tsh'] }));
    return verdict(allOf(
      matchNumber(answer, { value: f.tshValue, unit: 'mIU/L', tolerance: { absolute: 0.01 }, fields: ['tsh'], near: ['tsh'] }),
      dateMatches.find((m) => m.ok) ?? dateMatches[0],
      matchNumber(answer, { value: f.startMcg, unit: 'mcg', tolerance: { absolute: 0.5 }, fields: ['currentDoseMcg', 'doseMcg', 'currentDose'], near: ['current', 'currently', 'on'] }),
    ));
  },
  dose_judgement: async ({ fhir, patient, now, answer, changes }) => {
    const f = await thyroidFacts(fhir, patient, now, changes);
    if (!f.decision || f.startMcg === undefined) return fail(`no decision can be made from the chart (${whyText(f)}; binding error)`);
    const judgement = matchYesNo(answer, f.decision === 'increase', { fields: ['increaseDose'], ...INCREASE_PHRASES });
    // The new daily dose: required when the dose changes, and when given it must carry out the decision. A prose
    // answer may state it in words ("increased to 112 mcg daily"): the dose of the order the agent left is looked for.
    const fields = ['newDoseMcg', 'newDose', 'recommendedDoseMcg'];
    const given = answerField(answer, ...fields);
    const want = acceptable(f.decision, f.startMcg);
    let dose: Match = matchOf([]);
    if (given !== undefined) {
      const value = typeof given === 'number' ? given : typeof given === 'string' ? Number.parseFloat(given) : NaN;
      dose = Number.isFinite(value) && want.ok(value) ? matchOf([], [`newDoseMcg ${value}`]) : matchOf([`newDoseMcg is ${JSON.stringify(given)}, expected ${want.text}`]);
    } else if (f.decision !== 'no-change') {
      const left = (await finalOrders(fhir, patient)).map(mcgPerDay).find((v): v is number => v !== undefined && want.ok(v));
      dose = left === undefined ? matchOf([`no new daily dose in the answer (expected ${want.text})`])
        : matchNumber(answer, { value: left, unit: 'mcg', tolerance: { absolute: 0.5 }, near: ['to', 'new', 'now', 'dose'] });
    }
    return verdict(allOf(judgement, dose, matchOf([], [whyText(f)])));
  },
  levothyroxine_matches_tsh: async ({ fhir, patient, now, changes }) => {
    const f = await thyroidFacts(fhir, patient, now, changes);
    if (!f.decision || f.startMcg === undefined) return fail(`no decision can be made from the chart (${whyText(f)}; binding error)`);
    const want = acceptable(f.decision, f.startMcg);
    const final = await finalOrders(fhir, patient);
    const described = final.map((o) => `MedicationRequest/${o.id}: ${mcgPerDay(o) ?? '?'} mcg/day (${o.status})`);
    const problems: string[] = [];
    if (final.length !== 1) problems.push(`${final.length} active levothyroxine orders at the end, expected exactly one ${want.text}`);
    else {
      const mcg = mcgPerDay(final[0]);
      if (mcg === undefined || !want.ok(mcg)) problems.push(`active levothyroxine ${mcg ?? 'of unreadable dose'} mcg/day; expected ${want.text}`);
    }
    // A replaced order must be out of use for good: a held one could be resumed next to its replacement.
    for (const c of changes) {
      const before = c.before as MedicationRequest | null;
      const after = c.after as MedicationRequest | null;
      if (c.type !== 'MedicationRequest' || !before || !isLevothyroxine(before) || !isActiveOrder(before)) continue;
      if (c.action === 'deleted') problems.push(`deleted MedicationRequest/${c.id} instead of stopping it`);
      else if (after && !isActiveOrder(after) && !isNoLongerActive(after)) problems.push(`MedicationRequest/${c.id} set to ${after.status}, not stopped: it could be resumed next to the new order`);
    }
    return verdict(matchOf(problems, [whyText(f), ...described]));
  },
  no_other_medication_changes: ({ changes }) => {
    const problems = changes.filter((c) => c.type === 'MedicationRequest').flatMap((c) => {
      const order = (c.after ?? c.before) as MedicationRequest;
      return isLevothyroxine(order) ? [] : [`${c.action} MedicationRequest/${c.id} (${describeConcept(order.medicationCodeableConcept)}): not part of the levothyroxine dose question (liothyronine or other add-ons are not ATA 2014 therapy for fatigue)`];
    });
    return verdict(matchOf(problems, [`${changes.length} changes checked`]));
  },
  rationale_note: async ({ fhir, patient, now, changes }) => {
    const f = await thyroidFacts(fhir, patient, now, changes);
    if (f.tshValue === undefined || !f.decision) return fail('the chart holds no TSH in a decidable zone (binding error)');
    const final = await finalOrders(fhir, patient);
    const finalMcg = final.length === 1 ? mcgPerDay(final[0]) : undefined;
    const notes = createdResources<DocumentReference>(changes, 'DocumentReference');
    if (notes.length === 0) return fail('no DocumentReference was written');
    const results = notes.map((doc) => allOf(
      matchNote(doc, {
        patient, status: ['current'], mustMention: [['levothyroxine', 'synthroid', 'levoxyl', 'unithroid', 'euthyrox', 'tirosint', 'LT4', 'T4'], ['TSH', 'thyrotropin']],
        mustQuote: [{ value: f.tshValue!, tolerance: { absolute: 0.005 }, what: 'latest TSH' }, ...(finalMcg !== undefined ? [{ value: finalMcg, tolerance: { absolute: 0.5 }, what: 'levothyroxine dose it leaves (mcg/day)' }] : [])],
      }),
      // The note says the decision the chart supports, read with negation: "no dose increase" is a no.
      matchYesNo(withoutReportedRequest(noteText(doc)), f.decision === 'increase', INCREASE_PHRASES),
    ));
    return verdict(results.find((r) => r.ok) ?? results[0]);
  },
};
