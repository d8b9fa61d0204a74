// Verification of claims against a patient's chart (pure, in memory). Each claim is Supported (with the evidence
// resource ids), Contradicted (with the conflicting resources) or Unsupported (nothing in the chart); recommendations
// and hedged statements that the chart does not settle are Unverifiable and count for nothing. A claim that cites
// resources is judged on what it cites: a cited resource must exist and support the claim.
import type { AllergyIntolerance, CodeableConcept, Condition, MedicationRequest, Observation, Resource, ServiceRequest } from '@medplum/fhirtypes';
import { PatientChart, clinicalTime, isVoid, refOf, timeMillis } from '../../resources/evidence/chart.ts';
import { readTermsFile, RXNORM, SNOMED, type Vocabulary } from '../../resources/evidence/vocabulary.ts';
import { drugIngredients } from '../lib/drugs.ts';
import { isAsNeeded, medicationOf, orderDose, orderTimesPerDay } from '../lib/medications.ts';
import { matchesOrderGroup, ORDER_GROUPS, type OrderGroup } from '../lib/order-groups.ts';
import { extractClaims, type Claim } from './claims.ts';
import { sameDate } from './dates.ts';
import { canonicalUnit, convertValue, unitKey } from '../../resources/units/analytes.ts';

export type ClaimVerdict = 'supported' | 'contradicted' | 'unsupported' | 'unverifiable';

export interface ClaimVerification {
  claim: Claim;
  verdict: ClaimVerdict;
  /** Resources that support the claim, `Type/id`. */
  evidence: string[];
  /** Resources that conflict with it. */
  conflicting: string[];
  reason: string;
  /** Citations that do not exist or do not support the claim. */
  citationProblems: string[];
}

export interface VerifyOptions {
  /** When the note was written: undated results are compared with the latest result up to this instant. */
  asOf?: string;
  /** Undated results may match any result this many days before the latest one (default 30). */
  undatedWindowDays?: number;
  /** Relative tolerance for values compared after a unit conversion (default 0.02): rounding in another unit. */
  conversionTolerance?: number;
  /** Relative tolerance for values written as approximate ("about 42", "~42"; default 0.1). */
  approximateTolerance?: number;
}

interface Outcome {
  verdict: ClaimVerdict;
  supporting: Resource[];
  /** Resources about the same concept (a citation of one of these that does not support the claim contradicts it). */
  related: Resource[];
  conflicting: Resource[];
  reason: string;
}

const DAY = 86_400_000;
const exclusiveGroups: string[][] = ((readTermsFile() as unknown as { exclusive?: string[][] }).exclusive ?? []);

export function verifyClaims(claims: Claim[], chart: PatientChart, vocab: Vocabulary, options: VerifyOptions = {}): ClaimVerification[] {
  return claims.map((c) => verifyClaim(c, chart, vocab, options));
}

/** Extract and verify in one step. */
export function verifyNoteText(text: string, chart: PatientChart, vocab: Vocabulary, options: VerifyOptions = {}): ClaimVerification[] {
  return verifyClaims(extractClaims(text, vocab).claims, chart, vocab, options);
}

export function verifyClaim(claim: Claim, chart: PatientChart, vocab: Vocabulary, options: VerifyOptions = {}): ClaimVerification {
  let outcome: Outcome;
  switch (claim.kind) {
    case 'result': outcome = verifyResult(claim, chart, vocab, options); break;
    case 'medication': outcome = verifyMedication(claim, chart, vocab, options); break;
    case 'condition': outcome = verifyCondition(claim, chart, vocab); break;
    case 'allergy': outcome = verifyAllergy(claim, chart, vocab); break;
    case 'order': outcome = verifyOrder(claim, chart, vocab); break;
  }
  const citationProblems: string[] = [];
  if (claim.citations.length) {
    const cited = new Set<string>();
    for (const ref of claim.citations) {
      const r = chart.get(ref);
      if (!r) { citationProblems.push(`cites ${ref}, which is not in the chart`); continue; }
      cited.add(refOf(r));
      // A report cites its results.
      for (const res of (r as { result?: { reference?: string }[] }).result ?? []) if (res.reference) cited.add(chart.get(res.reference) ? refOf(chart.get(res.reference)!) : res.reference);
    }
    const supportingCited = outcome.supporting.filter((r) => cited.has(refOf(r)));
    if (outcome.verdict === 'supported' || supportingCited.length) {
      if (supportingCited.length) outcome = { ...outcome, verdict: 'supported', supporting: supportingCited };
      else if (outcome.related.some((r) => cited.has(refOf(r)))) {
        const wrong = outcome.related.filter((r) => cited.has(refOf(r)));
        citationProblems.push(`cited ${wrong.map(refOf).join(', ')} does not state this`);
        outcome = { ...outcome, verdict: 'contradicted', supporting: [], conflicting: wrong, reason: `the cited resource says otherwise (${outcome.reason})` };
      } else {
        if (!citationProblems.length) citationProblems.push(`cited ${[...cited].join(', ')} is not about ${claim.concept.display}`);
        outcome = { ...outcome, verdict: 'unsupported', supporting: [], reason: `no cited resource supports it (${outcome.reason})` };
      }
    }
  }
  return {
    claim,
    verdict: outcome.verdict,
    evidence: outcome.supporting.map(refOf),
    conflicting: outcome.conflicting.map(refOf),
    reason: outcome.reason,
    citationProblems,
  };
}

// ---- results ------------------------------------------------------------------------------------------------------

interface ResultValue {
  resource: Observation;
  value: number;
  unit?: string;
  second?: number;
  time: number;
  when?: string;
}

function observedValues(claim: Claim, chart: PatientChart, vocab: Vocabulary): ResultValue[] {
  const codes = new Set(claim.concept.codes);
  const out: ResultValue[] = [];
  for (const obs of chart.ofType<Observation>('Observation')) {
    if (isVoid(obs)) continue;
    const when = clinicalTime(obs);
    const base = { resource: obs, time: timeMillis(obs), when };
    const hit = [...vocab.expandCodings(obs.code?.coding)].some((c) => codes.has(c));
    if (hit && obs.valueQuantity?.value !== undefined) out.push({ ...base, value: obs.valueQuantity.value, unit: obs.valueQuantity.code ?? obs.valueQuantity.unit });
    const comps = obs.component ?? [];
    if (hit && claim.value?.second !== undefined && comps.length >= 2) {
      const sys = comps.find((c) => c.code?.coding?.some((x) => x.code === '8480-6'));
      const dia = comps.find((c) => c.code?.coding?.some((x) => x.code === '8462-4'));
      if (sys?.valueQuantity?.value !== undefined && dia?.valueQuantity?.value !== undefined) {
        out.push({ ...base, value: sys.valueQuantity.value, second: dia.valueQuantity.value, unit: sys.valueQuantity.code ?? sys.valueQuantity.unit });
      }
    } else {
      for (const comp of comps) {
        if (comp.valueQuantity?.value === undefined) continue;
        if (![...vocab.expandCodings(comp.code?.coding)].some((c) => codes.has(c))) continue;
        out.push({ ...base, value: comp.valueQuantity.value, unit: comp.valueQuantity.code ?? comp.valueQuantity.unit });
      }
    }
  }
  return out.sort((a, b) => b.time - a.time);
}

function valueMatches(claim: Claim, v: ResultValue, options: VerifyOptions): boolean {
  const q = claim.value!;
  const loinc = claim.concept.codes.filter((c) => c.startsWith('http://loinc.org|')).map((c) => c.split('|')[1]);
  const candidates: { value: number; converted: boolean }[] = [];
  if (q.unit) {
    const c = convertValue(v.value, v.unit, q.unit, loinc);
    if (c !== undefined) candidates.push({ value: c, converted: unitKey(v.unit) !== unitKey(q.unit) });
  } else {
    candidates.push({ value: v.value, converted: false });
    const canonical = canonicalUnit(loinc);
    if (canonical && unitKey(canonical) !== unitKey(v.unit)) {
      const c = convertValue(v.value, v.unit, canonical, loinc);
      if (c !== undefined) candidates.push({ value: c, converted: true });
    }
  }
  const rel = options.conversionTolerance ?? 0.02;
  const close = (actual: number, quoted: number, converted: boolean) =>
    Math.abs(actual - quoted) <= Math.max(0.5 * 10 ** -q.decimals + 1e-9, converted ? rel * Math.abs(actual) : 0);
  return candidates.some(({ value, converted }) => {
    if (q.second !== undefined && (v.second === undefined || !close(v.second, q.second, false))) return false;
    switch (q.comparator) {
      case '<': return value < q.value;
      case '<=': case '≤': return value <= q.value;
      case '>': return value > q.value;
      case '>=': case '≥': return value >= q.value;
      case '~': return Math.abs(value - q.value) <= Math.max(0.5 * 10 ** -q.decimals, (options.approximateTolerance ?? 0.1) * Math.abs(value));
      default: return close(value, q.value, converted);
    }
  });
}

function verifyResult(claim: Claim, chart: PatientChart, vocab: Vocabulary, options: VerifyOptions): Outcome {
  const asOf = options.asOf ? Date.parse(options.asOf) : Infinity;
  const all = observedValues(claim, chart, vocab).filter((v) => v.time <= asOf || Number.isNaN(asOf));
  const related = [...new Set(all.map((v) => v.resource))];
  const name = claim.concept.display;
  if (!all.length) return { verdict: factOrPlan(claim, 'unsupported'), supporting: [], related, conflicting: [], reason: `no ${name} result in the chart` };
  const matching = all.filter((v) => valueMatches(claim, v, options));
  if (claim.date) {
    const onDate = all.filter((v) => sameDate(v.when, claim.date!));
    const hit = onDate.filter((v) => matching.includes(v));
    if (hit.length) return { verdict: 'supported', supporting: hit.map((v) => v.resource), related, conflicting: [], reason: `${name} ${describe(hit[0])} on ${claim.date.value}` };
    if (onDate.length) return { verdict: factOrPlan(claim, 'contradicted'), supporting: [], related, conflicting: onDate.map((v) => v.resource), reason: `${name} on ${claim.date.value} was ${onDate.map(describe).join(', ')}` };
    if (matching.length) return { verdict: factOrPlan(claim, 'contradicted'), supporting: [], related, conflicting: matching.map((v) => v.resource), reason: `${name} ${describe(matching[0])} was measured on ${matching[0].when?.slice(0, 10)}, not ${claim.date.value}` };
    return { verdict: factOrPlan(claim, 'unsupported'), supporting: [], related, conflicting: [], reason: `no ${name} result on ${claim.date.value}` };
  }
  const latest = all[0];
  const window = (options.undatedWindowDays ?? 30) * DAY;
  const pool = claim.temporal === 'earlier' ? all.slice(1) : all.filter((v) => v.time >= latest.time - window);
  const hit = pool.filter((v) => matching.includes(v));
  if (hit.length) return { verdict: 'supported', supporting: hit.map((v) => v.resource), related, conflicting: [], reason: `${name} ${describe(hit[0])} (${hit[0].when?.slice(0, 10)})` };
  return {
    verdict: factOrPlan(claim, 'contradicted'), supporting: [], related, conflicting: [latest.resource],
    reason: `the ${claim.temporal === 'earlier' ? 'earlier' : 'latest'} ${name} is ${describe(latest)} (${latest.when?.slice(0, 10)})`,
  };
}

function describe(v: ResultValue): string {
  return `${v.value}${v.second !== undefined ? `/${v.second}` : ''}${v.unit ? ` ${v.unit}` : ''}`;
}

/** A plan or hedged statement the chart does not bear out is not a false claim about the record. */
function factOrPlan(claim: Claim, verdict: ClaimVerdict): ClaimVerdict {
  return claim.assertion === 'plan' ? 'unverifiable' : verdict;
}

// ---- medications --------------------------------------------------------------------------------------------------

const CURRENT_MED = new Set(['active', 'on-hold', 'draft', 'intended', 'unknown']);

function mentions(concept: CodeableConcept | undefined, display: string): boolean {
  const text = `${concept?.text ?? ''} ${(concept?.coding ?? []).map((c) => c.display ?? '').join(' ')}`.toLowerCase();
  return new RegExp(`\\b${display.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`).test(text);
}

function matchesConcept(concept: CodeableConcept | undefined, claim: Claim, vocab: Vocabulary): boolean {
  const codes = new Set(claim.concept.codes);
  if ([...vocab.expandCodings(concept?.coding)].some((c) => codes.has(c))) return true;
  return claim.concept.display !== 'any drug allergy' && mentions(concept, claim.concept.display);
}

/**
 * A drug order that never stood: entered in error. A cancelled or revoked order is a real stop (agents and EHRs
 * cancel an order to discontinue it), so "naproxen discontinued" is borne out by it and "on naproxen" is not.
 */
function voidOrder(o: MedicationRequest): boolean {
  return isVoid(o) && o.status !== 'cancelled' && (o.status as string) !== 'revoked';
}

/** The drug of a medication order or statement: its concept, or the code of the contained Medication it references. */
function drugConcept(o: MedicationRequest): CodeableConcept | undefined {
  return medicationOf(o).concept;
}

/**
 * Does the order give the claimed drug? By code (the vocabulary expands SCDs and brands to their ingredients), else
 * by the ingredients its text and displays name ("Jardiance 10 mg tablet", "empagliflozin 10 mg tablet" with no code).
 */
function orderGivesDrug(o: MedicationRequest, claim: Claim, vocab: Vocabulary): boolean {
  const concept = drugConcept(o);
  if (matchesConcept(concept, claim, vocab)) return true;
  const codes = new Set(claim.concept.codes);
  return drugIngredients(concept).some((rxcui) => codes.has(`${RXNORM}|${rxcui}`));
}

/**
 * The order's administrations per day as a note states them: an as-needed order is "as needed" (0), whatever its
 * maximum frequency; otherwise the shared reading of timing and sig (graders/lib/dose/frequency.ts).
 */
function orderPerDay(mr: MedicationRequest): number | undefined {
  const d = mr.dosageInstruction?.[0];
  if (!d) return undefined;
  if (isAsNeeded(d)) return 0;
  return orderTimesPerDay(mr);
}

/**
 * The dose per administration of the claimed drug (a count of tablets times the product's strength: "2 tablets" of
 * metformin 500 mg is 1000 mg; for a combination product, the claimed ingredient's share).
 */
function claimedDose(claim: Claim, mr: MedicationRequest): { value: number; unit: string } | undefined {
  const ingredients = [claim.concept.display.toLowerCase(), ...claim.concept.codes.filter((c) => c.startsWith(`${RXNORM}|`)).map((c) => c.split('|')[1])];
  return orderDose(mr, { ingredients });
}

function doseMatches(claim: Claim, mr: MedicationRequest): boolean {
  if (claim.dose) {
    const d = claimedDose(claim, mr);
    if (d) {
      const c = convertValue(d.value, d.unit, claim.dose.unit);
      if (c !== undefined && Math.abs(c - claim.dose.value) > 1e-6 * Math.max(1, c)) return false;
    }
  }
  if (claim.frequency) {
    const f = orderPerDay(mr);
    if (f !== undefined && Math.abs(f - claim.frequency.perDay) > 1e-6) return false;
  }
  return true;
}

/**
 * Was the order in force at `asOf`? Without `asOf`, its status decides; with it, the order's start (authoredOn or
 * timing bounds) and end (timing bounds) do, so an older note is judged against the record of its own day.
 */
function medicationState(o: MedicationRequest, asOf: number | undefined): 'current' | 'past' | 'later' {
  if (asOf === undefined) return CURRENT_MED.has(o.status) ? 'current' : 'past';
  const bounds = o.dosageInstruction?.[0]?.timing?.repeat?.boundsPeriod;
  const start = Date.parse(o.authoredOn ?? bounds?.start ?? '');
  if (!Number.isNaN(start) && start > asOf + DAY) return 'later';
  if (CURRENT_MED.has(o.status)) return 'current';
  const end = Date.parse(bounds?.end ?? '');
  return !Number.isNaN(end) && end > asOf ? 'current' : 'past';
}

function verifyMedication(claim: Claim, chart: PatientChart, vocab: Vocabulary, options: VerifyOptions): Outcome {
  const asOf = options.asOf ? Date.parse(options.asOf) : undefined;
  const orders = [...chart.ofType<MedicationRequest>('MedicationRequest'), ...chart.ofType<MedicationRequest>('MedicationStatement' as 'MedicationRequest')]
    .filter((o) => !voidOrder(o) && orderGivesDrug(o, claim, vocab) && medicationState(o, asOf) !== 'later');
  const current = orders.filter((o) => medicationState(o, asOf) === 'current');
  const past = orders.filter((o) => medicationState(o, asOf) === 'past');
  const name = claim.concept.display;
  const plan = (v: ClaimVerdict) => factOrPlan(claim, v);
  if (claim.negated) {
    if (current.length) return { verdict: plan('contradicted'), supporting: [], related: orders, conflicting: current, reason: `${name} is an active order` };
    return { verdict: 'supported', supporting: past, related: orders, conflicting: [], reason: `no active ${name} order` };
  }
  if (claim.status === 'stopped') {
    // A drug re-ordered at another dose has a stopped order too, but the drug itself was not discontinued.
    if (current.length) return { verdict: plan('contradicted'), supporting: [], related: orders, conflicting: current, reason: `${name} is still active` };
    if (past.length) return { verdict: 'supported', supporting: past, related: orders, conflicting: [], reason: `${name} order ${past[0].status}` };
    return { verdict: plan('unsupported'), supporting: [], related: orders, conflicting: [], reason: `no ${name} order in the chart` };
  }
  const fitting = current.filter((o) => doseMatches(claim, o));
  if (fitting.length) return { verdict: 'supported', supporting: fitting, related: orders, conflicting: [], reason: `active ${name} order${claim.dose ? ` ${claim.dose.value} ${claim.dose.unit}` : ''}` };
  if (current.length) {
    const d = claimedDose(claim, current[0]);
    return { verdict: plan('contradicted'), supporting: [], related: orders, conflicting: current, reason: `the active ${name} order is ${d ? `${d.value} ${d.unit}` : 'a different dose'}${orderPerDay(current[0]) !== undefined ? `, ${orderPerDay(current[0])}x/day` : ''}` };
  }
  if (past.length) return { verdict: plan('contradicted'), supporting: [], related: orders, conflicting: past, reason: `${name} was ${past[0].status} (no active order)` };
  return { verdict: plan('unsupported'), supporting: [], related: orders, conflicting: [], reason: `no ${name} order in the chart` };
}

// ---- problems, allergies, orders ----------------------------------------------------------------------------------

const ACTIVE_CONDITION = new Set(['active', 'recurrence', 'relapse']);

function conditionActive(c: Condition): boolean {
  const status = c.clinicalStatus?.coding?.[0]?.code;
  return status === undefined || ACTIVE_CONDITION.has(status);
}

function sideOf(c: Condition): 'left' | 'right' | 'bilateral' | undefined {
  const text = [c.code?.text, ...(c.code?.coding ?? []).map((x) => x.display), ...(c.bodySite ?? []).flatMap((b) => [b.text, ...(b.coding ?? []).map((x) => x.display)])].join(' ').toLowerCase();
  const m = /\b(left|right|bilateral)\b/.exec(text);
  return m ? (m[1] as 'left' | 'right' | 'bilateral') : undefined;
}

function verifyCondition(claim: Claim, chart: PatientChart, vocab: Vocabulary): Outcome {
  const all = chart.ofType<Condition>('Condition').filter((c) => !isVoid(c));
  const matching = all.filter((c) => matchesConcept(c.code, claim, vocab));
  const active = matching.filter(conditionActive);
  const name = claim.concept.display;
  if (claim.negated) {
    if (active.length) return { verdict: factOrPlan(claim, 'contradicted'), supporting: [], related: matching, conflicting: active, reason: `${name} is on the problem list` };
    return { verdict: 'supported', supporting: matching, related: matching, conflicting: [], reason: `no active ${name} in the chart` };
  }
  if (matching.length) {
    if (claim.laterality) {
      const sided = matching.filter((c) => sideOf(c));
      const same = matching.filter((c) => sideOf(c) === claim.laterality || !sideOf(c));
      if (sided.length && !sided.some((c) => sideOf(c) === claim.laterality) && same.length === 0) {
        return { verdict: factOrPlan(claim, 'contradicted'), supporting: [], related: matching, conflicting: sided, reason: `the chart records ${sideOf(sided[0])}, not ${claim.laterality}` };
      }
      return { verdict: 'supported', supporting: same.length ? same : matching, related: matching, conflicting: [], reason: `${name} recorded` };
    }
    return { verdict: 'supported', supporting: active.length ? active : matching, related: matching, conflicting: [], reason: `${name} recorded${active.length ? '' : ' (resolved)'}` };
  }
  // Mutually exclusive concepts (CKD stages, diabetes types): the chart holding a sibling contradicts the claim.
  const own = claim.concept.codes.find((c) => c.startsWith(`${SNOMED}|`))?.split('|')[1];
  const group = own ? exclusiveGroups.find((g) => g.includes(own)) : undefined;
  if (group) {
    const siblings = all.filter((c) => conditionActive(c) && [...vocab.expandCodings(c.code?.coding)].some((k) => k.startsWith(`${SNOMED}|`) && group.includes(k.split('|')[1]) && k.split('|')[1] !== own));
    if (siblings.length) return { verdict: factOrPlan(claim, 'contradicted'), supporting: [], related: siblings, conflicting: siblings, reason: `the chart records ${siblings[0].code?.text ?? siblings[0].code?.coding?.[0]?.display}` };
  }
  return { verdict: factOrPlan(claim, 'unsupported'), supporting: [], related: [], conflicting: [], reason: `no ${name} in the chart` };
}

function verifyAllergy(claim: Claim, chart: PatientChart, vocab: Vocabulary): Outcome {
  const all = chart.ofType<AllergyIntolerance>('AllergyIntolerance').filter((a) => !isVoid(a) && a.clinicalStatus?.coding?.[0]?.code !== 'resolved');
  if (claim.concept.codes.length === 0) {
    if (all.length) return { verdict: 'contradicted', supporting: [], related: all, conflicting: all, reason: `the chart records ${all.length} allerg${all.length > 1 ? 'ies' : 'y'}` };
    return { verdict: 'supported', supporting: [], related: [], conflicting: [], reason: 'no allergies recorded' };
  }
  const matching = all.filter((a) => matchesConcept(a.code, claim, vocab));
  const name = claim.concept.display;
  if (claim.negated) {
    if (matching.length) return { verdict: 'contradicted', supporting: [], related: matching, conflicting: matching, reason: `allergy to ${name} is recorded` };
    return { verdict: 'supported', supporting: [], related: [], conflicting: [], reason: `no allergy to ${name} recorded` };
  }
  if (matching.length) return { verdict: 'supported', supporting: matching, related: matching, conflicting: [], reason: `allergy to ${name} recorded` };
  return { verdict: factOrPlan(claim, 'unsupported'), supporting: [], related: [], conflicting: [], reason: `no allergy to ${name} recorded` };
}

/**
 * The order intents (graders/lib/order-groups.ts) a claimed test or procedure belongs to: "UACR ordered" is borne out
 * by an order coded 9318-7 or 32294-1 as well as 14959-1, or by a text-only "urine albumin/creatinine ratio";
 * "potassium ordered" by a BMP. A claim naming a panel uses a group only when its code belongs to that group alone:
 * the BMP is in the potassium and the renal-function groups, and a lone potassium order is not a BMP.
 */
function orderGroupsOf(claim: Claim): OrderGroup[] {
  const codes = new Set(claim.concept.codes);
  const groups = Object.values(ORDER_GROUPS).filter((g: OrderGroup) => g.codes.some((set) => set.codes.some((c) => codes.has(`${set.system}|${c}`))));
  return claim.concept.kind === 'panel' && groups.length > 1 ? [] : groups;
}

function verifyOrder(claim: Claim, chart: PatientChart, vocab: Vocabulary): Outcome {
  const requests = chart.ofType<ServiceRequest>('ServiceRequest').filter((s) => !isVoid(s));
  const groups = claim.concept.kind === 'specialty' ? [] : orderGroupsOf(claim);
  const matching = requests.filter((s) => {
    if (claim.concept.kind === 'specialty') {
      const codes = new Set(claim.concept.codes);
      return [...vocab.expandCodings(s.performerType?.coding)].some((c) => codes.has(c)) || mentions(s.code, claim.concept.display) || mentions(s.performerType, claim.concept.display);
    }
    return matchesConcept(s.code, claim, vocab) || groups.some((g) => matchesOrderGroup(s, g));
  });
  const name = claim.concept.display;
  if (matching.length) return { verdict: 'supported', supporting: matching, related: matching, conflicting: [], reason: `${claim.concept.kind === 'specialty' ? `referral to ${name}` : `${name} order`} in the chart` };
  return { verdict: factOrPlan(claim, 'unsupported'), supporting: [], related: [], conflicting: [], reason: `no ${claim.concept.kind === 'specialty' ? `referral to ${name}` : `${name} order`} in the chart` };
}
