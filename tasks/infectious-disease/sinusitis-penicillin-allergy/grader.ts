// Grader: the allergy list, the penicillin history's risk class and pregnancy come from the chart; they decide which
// guideline regimens fit (IDSA 2012 ABRS for penicillin allergy, AAAAI/ACAAI 2022 for cephalosporin cross-reactivity).
// The agent must order one of them (a cephalosporin may carry clindamycin), no penicillin, nothing the patient reacts
// to or that the chart rules out, and say why amoxicillin was not used.
import type { AllergyIntolerance, Condition, MedicationRequest, Observation, Patient } from '@medplum/fhirtypes';
import type { Check, SelectContext } from '../../../contracts/task.ts';
import type { ResourceChange } from '../../../contracts/gym-api.ts';
import type { FhirClient } from '../../../contracts/fhir-client.ts';
import {
  allOf, answerText, classesNamedIn, classesOfOrder, codingsOf, conceptIs, createdResources, describeConcept, fail, fetchedAll, findMedicationOrder, ingredientNamesOf, matchOf,
  matchRecommendation, mentionsDrug, orderInClass, verdict, type Match,
} from '../../../graders/lib/index.ts';
import {
  AMINOCEPHALOSPORINS, AMOXICILLIN, EGFR, EXCLUDED_IN_PREGNANCY, ICD10CM, LOINC, PREGNANCY, REGIMENS, RXNORM, SEVERE_REACTIONS, SNOMED, type Regimen,
} from './facts.ts';

const YEAR_MS = 365.25 * 86400_000;
const isActiveAllergy = (a: AllergyIntolerance) => a.clinicalStatus?.coding?.some((c) => c.code === 'active') ?? false;
const confirmedOrUnconfirmed = (a: AllergyIntolerance) => !a.verificationStatus?.coding?.some((c) => ['refuted', 'entered-in-error'].includes(c.code ?? ''));

/** The order's drug is `id` (an ingredient or a drug class), by any RxNorm code, brand or name (graders/lib). */
const is = (order: MedicationRequest, id: string): boolean => conceptIs(order.medicationCodeableConcept, id);

/** The allergy list entry covers the order: a shared ingredient, or a class the allergy names ("sulfa", "cephalosporins"). */
const allergyCovers = (a: AllergyIntolerance, order: MedicationRequest): boolean =>
  ingredientNamesOf(a.code).some((n) => is(order, n)) || classesNamedIn(describeConcept(a.code)).some((c) => classesOfOrder(order).includes(c));

const regimenOf = (order: MedicationRequest): Regimen[] => REGIMENS.filter((r) => is(order, r.drug));

export interface ChartFacts {
  allergies: AllergyIntolerance[];
  amoxicillin: AllergyIntolerance[];
  /** The penicillin history is high risk (anaphylaxis, angioedema, severe cutaneous reaction, or high criticality). */
  highRisk: boolean;
  pregnant: boolean;
  egfr?: number;
}

export async function chartFacts(fhir: FhirClient, patient: string, changes: ResourceChange[] = []): Promise<ChartFacts> {
  const now = await fhir.search<AllergyIntolerance>('AllergyIntolerance', { patient, _count: 1000 });
  // As the chart stood before the agent: an allergy it edited counts as it was.
  const before = changes.filter((c) => c.type === 'AllergyIntolerance' && c.before).map((c) => c.before as AllergyIntolerance);
  const created = new Set(changes.filter((c) => c.type === 'AllergyIntolerance' && c.action === 'created').map((c) => c.id));
  const allergies = [...now.filter((a) => !created.has(a.id!) && !before.some((b) => b.id === a.id)), ...before].filter((a) => isActiveAllergy(a) && confirmedOrUnconfirmed(a));
  const amoxicillin = allergies.filter((a) => codingsOf(a.code).some((c) => c.system === RXNORM && c.code === AMOXICILLIN));
  const penicillinAllergies = allergies.filter((a) => conceptIs(a.code, 'penicillin'));
  const highRisk = penicillinAllergies.some((a) => a.criticality === 'high'
    || (a.reaction ?? []).some((r) => (r.manifestation ?? []).some((m) => codingsOf(m).some((c) => c.system === SNOMED && SEVERE_REACTIONS.includes(c.code ?? '')))));
  const conditions = await fhir.search<Condition>('Condition', { patient, 'clinical-status': 'active', _count: 1000 });
  const pregnant = conditions.some((c) => codingsOf(c.code).some((k) => (k.system === SNOMED && PREGNANCY.snomed.includes(k.code ?? ''))
    || (k.system === ICD10CM && PREGNANCY.icd10Prefixes.some((p) => (k.code ?? '').startsWith(p)))));
  const egfrs = await fhir.search<Observation>('Observation', { patient, code: EGFR.codes.map((c) => `${LOINC}|${c}`).join(','), _count: 1000 });
  const egfr = egfrs.filter((o) => o.valueQuantity?.value !== undefined).sort((a, b) => Date.parse(b.effectiveDateTime ?? '') - Date.parse(a.effectiveDateTime ?? ''))[0]?.valueQuantity?.value;
  return { allergies, amoxicillin, highRisk, pregnant, egfr };
}

/** Why a regimen does not fit this chart, or undefined when it does. */
function ruledOut(regimen: Regimen, facts: ChartFacts): string | undefined {
  if (facts.pregnant && EXCLUDED_IN_PREGNANCY.includes(regimen.drugClass)) return `${regimen.drug} (${regimen.drugClass}) is avoided in pregnancy`;
  if (facts.highRisk && regimen.amoxicillinSideChain) return `${regimen.drug} shares amoxicillin's side chain after a severe reaction`;
  const listed = facts.allergies.find((a) => conceptIs(a.code, regimen.drug));
  if (listed) return `${regimen.drug} is on the patient's allergy list (AllergyIntolerance/${listed.id})`;
  return undefined;
}

/** Variants: adults with an active amoxicillin allergy and kidney function that needs no dose adjustment. */
export async function select({ fhir, patient, now }: SelectContext): Promise<boolean> {
  const p = await fhir.read<Patient>('Patient', patient);
  if (!p.birthDate || (Date.parse(now) - Date.parse(p.birthDate)) / YEAR_MS < 18) return false;
  const f = await chartFacts(fhir, patient);
  return f.amoxicillin.length > 0 && (f.egfr === undefined || f.egfr >= EGFR.noAdjustmentAtLeast);
}

function newOrders(changes: ResourceChange[]): MedicationRequest[] {
  return createdResources<MedicationRequest>(changes, 'MedicationRequest').filter((o) => ['active', 'draft', 'on-hold'].includes(o.status));
}

const doseText = (r: Regimen) => r.doses.map((d) => `${d.mg} mg ${d.timesPerDay}x/day`).join(' or ');

export const checks: Record<string, Check> = {
  reviewed_allergy_list: async ({ fhir, patient, log, changes }) => {
    const f = await chartFacts(fhir, patient, changes);
    if (f.amoxicillin.length === 0) return fail('no active amoxicillin allergy in the chart (binding error)');
    return verdict(fetchedAll(log, f.allergies.map((a) => `AllergyIntolerance/${a.id}`), 'allergy list entry'));
  },
  answer_explains_choice: ({ answer, changes }) => {
    const ordered = newOrders(changes).flatMap(regimenOf).map((r) => r.drug);
    const text = answerText(answer).toLowerCase();
    return verdict(allOf(
      matchRecommendation(answer, { subject: ['amoxicillin'], expected: 'against', answersQuestion: true }),
      matchOf(/allerg|hives|urticaria|anaphyla|reaction/.test(text) ? [] : ['the answer does not give the allergy as the reason']),
      matchOf(ordered.length === 0 || ordered.some((d) => mentionsDrug(text, d)) ? [] : [`the answer does not name what was ordered (${ordered.join(', ')})`]),
    ));
  },
  no_penicillin_ordered: ({ changes }) => {
    const orders = newOrders(changes);
    const bad = orders.filter((o) => is(o, 'penicillin'));
    return verdict(matchOf(bad.map((o) => `MedicationRequest/${o.id} (${describeConcept(o.medicationCodeableConcept)}) is a penicillin despite the amoxicillin allergy`), [`${orders.length} new orders checked`]));
  },
  guideline_antibiotic_ordered: async ({ fhir, patient, changes }) => {
    const f = await chartFacts(fhir, patient, changes);
    const orders = newOrders(changes);
    if (orders.length === 0) return fail('no new active MedicationRequest was written');
    const fitting = REGIMENS.filter((r) => !r.addOnOnly && !ruledOut(r, f));
    const attempts: Match[] = [];
    for (const regimen of fitting) {
      const candidates = orders.filter((o) => is(o, regimen.drug));
      if (candidates.length === 0) continue;
      const options = regimen.doses.map((d) => findMedicationOrder(candidates, { patient, status: ['active'], intent: ['order', 'original-order'], route: ['oral'], dose: { value: d.mg, unit: 'mg', tolerance: { absolute: 0 } }, timesPerDay: d.timesPerDay }));
      const hit = options.find((m) => m.ok);
      if (hit) return verdict(matchOf([], [...hit.evidence, `${regimen.drug} fits: ${f.pregnant ? 'pregnant, ' : ''}${f.highRisk ? 'high-risk' : 'low-risk'} penicillin history`]));
      attempts.push(matchOf([`${regimen.drug} ordered, but not at an accepted dose (${doseText(regimen)})`, ...options.flatMap((m) => m.mismatches)]));
    }
    const why = `fitting regimens here: ${fitting.map((r) => r.drug).join(', ')}`;
    return verdict(attempts.length ? allOf(...attempts, matchOf([why])) : matchOf([`none of the new orders (${orders.map((o) => describeConcept(o.medicationCodeableConcept)).join('; ')}) is a regimen that fits this chart`, why]));
  },
  no_contraindicated_antibiotic: async ({ fhir, patient, changes }) => {
    const f = await chartFacts(fhir, patient, changes);
    const problems = newOrders(changes).flatMap((o) => {
      const own = regimenOf(o).map((r) => ruledOut(r, f)).filter((x): x is string => !!x);
      if (f.highRisk && AMINOCEPHALOSPORINS.some((n) => is(o, n))) own.push(`${describeConcept(o.medicationCodeableConcept)} shares a side chain with amoxicillin/ampicillin after a severe reaction`);
      const listed = f.allergies.filter((a) => !codingsOf(a.code).some((c) => c.code === AMOXICILLIN))
        .filter((a) => allergyCovers(a, o));
      own.push(...listed.map((a) => `contains ${a.code?.text ?? describeConcept(a.code)}, on the allergy list`));
      return [...new Set(own)].map((p) => `MedicationRequest/${o.id}: ${p}`);
    });
    return verdict(matchOf(problems, [`allergies: ${f.allergies.map((a) => a.code?.text ?? describeConcept(a.code)).join('; ')}; ${f.pregnant ? 'pregnant' : 'not pregnant'}; ${f.highRisk ? 'high' : 'low'}-risk penicillin history`]));
  },
  one_regimen: ({ changes }) => {
    // One antibiotic course; a cephalosporin plus clindamycin is one regimen (IDSA 2012).
    const antibiotics = newOrders(changes).filter((o) => regimenOf(o).length > 0 || orderInClass(o, 'systemic-antibiotic'));
    const main = antibiotics.filter((o) => !regimenOf(o).some((r) => r.addOnOnly));
    const addOns = antibiotics.filter((o) => regimenOf(o).some((r) => r.addOnOnly));
    const problems: string[] = [];
    if (main.length > 1) problems.push(`${main.length} antibiotic orders (${main.map((o) => describeConcept(o.medicationCodeableConcept)).join('; ')}): one course is enough`);
    if (addOns.length && !main.some((o) => regimenOf(o).some((r) => r.drugClass === 'cephalosporin'))) problems.push('clindamycin without a cephalosporin is not a sinusitis regimen');
    return verdict(matchOf(problems, [`${antibiotics.length} antibiotic order(s)`]));
  },
};
