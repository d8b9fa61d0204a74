// Grader: the amoxicillin allergy (reaction, onset, criticality) comes from the variant's chart; PEN-FAST is computed
// from it; the right action is an allergy referral, with no penicillin order and the label kept until testing.
import type { AllergyIntolerance, MedicationRequest, ServiceRequest } from '@medplum/fhirtypes';
import type { Check, SelectContext } from '../../../harness/types.ts';
import type { FhirClient } from '../../../harness/fhir-client.ts';
import {
  allOf, answerField, answerText, codingsOf, createdResources, describeConcept, fail, fetchedAll, findReferral, inCodeSet, matchNumber, matchOf,
  matchYesNo, rxnormIngredients, SNOMED, verdict, writesOnlyFor, writtenResources,
} from '../../../graders/lib/index.ts';

const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';
const AMOXICILLIN = [{ system: RXNORM, codes: ['723'] }];
/** Penicillin-class ingredients (RxNorm IN) and the words that name them in text. */
export const PENICILLINS = { ingredients: ['723', '733', '7980', '7984', '48203', '3356', '8339', '7233', '7773', '10591'] };
const PENICILLIN_WORDS = /(cillin|augmentin|amoxil|clavulan|penicillin)/i;
/** Reactions that score 2 PEN-FAST points: anaphylaxis, angioedema, severe cutaneous reactions (SJS/TEN, DRESS). */
const SEVERE_REACTIONS = [{ system: SNOMED, codes: ['39579001', '41291007', '73442001', '402736002', '419076005', '703330009'] }];
const ALLERGY_SPECIALTY = [{ system: SNOMED, codes: ['408439002', '394538003'] }];
const REACTION_WORDS: Record<string, string[]> = { urticaria: ['urticaria', 'hives', 'urticarial'] };
const YEAR_MS = 365.25 * 86400_000;

const isActive = (a: AllergyIntolerance) => a.clinicalStatus?.coding?.some((c) => c.code === 'active') ?? false;
const refuted = (a: AllergyIntolerance) => a.verificationStatus?.coding?.some((c) => ['refuted', 'entered-in-error'].includes(c.code ?? '')) ?? false;
const manifestation = (a: AllergyIntolerance) => a.reaction?.[0]?.manifestation?.[0];
const onsetOf = (a: AllergyIntolerance) => a.onsetDateTime ?? a.recordedDate ?? '';

export interface Facts { allergy: AllergyIntolerance; reaction: string; years: number; penFast: number }

/** The amoxicillin allergy as it stands in the chart (any status, so a grader still finds one the agent inactivated). */
export async function facts(fhir: FhirClient, patient: string, now: string): Promise<Facts | undefined> {
  const all = await fhir.search<AllergyIntolerance>('AllergyIntolerance', { patient, _count: 1000 });
  const allergy = all.filter((a) => inCodeSet(a.code, AMOXICILLIN)).sort((a, b) => Number(isActive(b)) - Number(isActive(a)))[0];
  if (!allergy || !onsetOf(allergy)) return undefined;
  const years = (Date.parse(now) - Date.parse(onsetOf(allergy))) / YEAR_MS;
  const severe = inCodeSet(manifestation(allergy), SEVERE_REACTIONS);
  const penFast = (years <= 5 ? 2 : 0) + (severe ? 2 : 0);
  return { allergy, reaction: describeConcept(manifestation(allergy)).toLowerCase(), years, penFast };
}

/** Low-risk variants: an active, low-criticality amoxicillin urticaria more than five years ago, nothing severe to a penicillin. */
export async function select({ fhir, patient, now }: SelectContext): Promise<boolean> {
  const f = await facts(fhir, patient, now);
  if (!f || !isActive(f.allergy) || f.allergy.criticality !== 'low' || f.years <= 5 || f.penFast !== 0) return false;
  if (!inCodeSet(manifestation(f.allergy), [{ system: SNOMED, codes: ['126485001'] }])) return false;
  const all = await fhir.search<AllergyIntolerance>('AllergyIntolerance', { patient, _count: 1000 });
  return !all.some((a) => isActive(a) && rxnormIngredients(a.code).some((i) => PENICILLINS.ingredients.includes(i)) && (a.criticality === 'high' || inCodeSet(manifestation(a), SEVERE_REACTIONS)));
}

const isPenicillin = (o: MedicationRequest) => {
  const c = o.medicationCodeableConcept;
  return rxnormIngredients(c).some((i) => PENICILLINS.ingredients.includes(i)) || PENICILLIN_WORDS.test([c?.text, ...codingsOf(c).map((x) => x.display)].join(' '));
};

const bindingError = () => fail('the chart holds no amoxicillin allergy (binding error)');

export const checks: Record<string, Check> = {
  reviewed_allergy: async ({ fhir, patient, now, log }) => {
    const f = await facts(fhir, patient, now);
    if (!f) return bindingError();
    return verdict(fetchedAll(log, [`AllergyIntolerance/${f.allergy.id}`], 'amoxicillin allergy'));
  },
  reviewed_medication_history: ({ patient, log }) => {
    const refs = [patient, `Patient/${patient}`];
    const hit = log.find((e) => e.method === 'GET' && e.status < 300 && /(^|\/)MedicationRequest\/?$/.test(e.path)
      && e.query.some(([k, v]) => ['patient', 'subject'].includes(k) && refs.includes(v)));
    return hit ? verdict(matchOf([], [`MedicationRequest searched at #${hit.seq}`])) : fail('the patient\'s medication orders were never searched');
  },
  pen_fast_low_risk: async ({ fhir, patient, now, answer }) => {
    const f = await facts(fhir, patient, now);
    if (!f) return bindingError();
    const reactionWords = REACTION_WORDS[f.reaction] ?? [f.reaction];
    const said = String(answerField(answer, 'reaction') ?? answerText(answer)).toLowerCase();
    const mismatches = reactionWords.some((w) => said.includes(w)) ? [] : [`the reaction should be ${f.reaction}, the answer gives ${JSON.stringify(said.slice(0, 80))}`];
    const score = Number(answerField(answer, 'penFast', 'pen_fast', 'score'));
    if (!(score === f.penFast || score === f.penFast + 1)) mismatches.push(`PEN-FAST should be ${f.penFast} (or ${f.penFast + 1} if treatment was required), the answer gives ${JSON.stringify(answerField(answer, 'penFast') ?? null)}`);
    return verdict(allOf(
      matchOf(mismatches, [`${f.reaction} on ${onsetOf(f.allergy).slice(0, 10)}, ${f.years.toFixed(1)} years ago, criticality ${f.allergy.criticality}`]),
      matchNumber(answer, { value: f.years, tolerance: { absolute: 1 }, fields: ['yearsSinceReaction', 'years'], near: ['years'] }),
      matchYesNo(answer, true, { fields: ['lowRisk'], yes: ['low risk', 'low-risk'], no: ['high risk', 'moderate risk', 'not low'] }),
    ));
  },
  allergy_referral: ({ patient, changes }) => verdict(findReferral(createdResources<ServiceRequest>(changes, 'ServiceRequest'), {
    patient, specialty: ALLERGY_SPECIALTY, specialtyWords: ['allergy', 'immunology'], status: ['active'], mustMention: [['penicillin', 'amoxicillin', 'beta-lactam']],
  })),
  no_penicillin_ordered: ({ changes }) => {
    const orders = writtenResources<MedicationRequest>(changes, 'MedicationRequest').filter((o) => ['active', 'draft', 'on-hold'].includes(o.status));
    const bad = orders.filter(isPenicillin);
    return verdict(matchOf(bad.map((o) => `MedicationRequest/${o.id} orders ${describeConcept(o.medicationCodeableConcept)} (penicillin before the allergy evaluation)`), [`${orders.length} new/changed active orders checked`]));
  },
  allergy_label_kept: async ({ fhir, patient, now, changes }) => {
    const f = await facts(fhir, patient, now);
    const touched = changes.filter((c) => c.type === 'AllergyIntolerance' && c.action !== 'created' && c.before && inCodeSet((c.before as AllergyIntolerance).code, AMOXICILLIN));
    const mismatches = touched.flatMap((c) => {
      const after = c.after as AllergyIntolerance | null;
      if (c.action === 'deleted' || !after) return [`AllergyIntolerance/${c.id} was deleted`];
      if (!isActive(after) || refuted(after)) return [`AllergyIntolerance/${c.id} was made ${after.clinicalStatus?.coding?.[0]?.code}/${after.verificationStatus?.coding?.[0]?.code} before any testing`];
      return [];
    });
    if (!f) mismatches.push('the amoxicillin allergy is gone from the chart');
    return verdict(matchOf(mismatches, [`${touched.length} change(s) to the amoxicillin allergy`]));
  },
  writes_scoped: ({ patient, changes }) => {
    if (changes.length === 0) return fail('nothing was written (the referral is missing)');
    return verdict(writesOnlyFor(changes, patient));
  },
};
