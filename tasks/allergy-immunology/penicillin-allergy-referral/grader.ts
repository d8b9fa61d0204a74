// Grader: the amoxicillin allergy (reaction, onset, criticality) comes from the chart; PEN-FAST and the risk class
// follow from it. A low-risk history may be evaluated by referral to Allergy & Immunology or by a supervised direct
// oral amoxicillin challenge; a high-risk history must be referred (skin testing first) and must not be challenged
// directly. No penicillin treatment before the evaluation, and the label stays until then.
import type { AllergyIntolerance, MedicationRequest, Patient, ServiceRequest } from '@medplum/fhirtypes';
import type { Check, SelectContext } from '../../../contracts/task.ts';
import type { ResourceChange } from '../../../contracts/gym-api.ts';
import type { FhirClient } from '../../../contracts/fhir-client.ts';
import { searchOf,
  allOf, anyOf, answerField, answerText, codingsOf, conceptIs, createdResources, describeConcept, fail, fetchedAll, findReferral, inCodeSet, matchNumber, matchOf,
  matchYesNo, mentionsDrug, SERVICE_CATEGORIES, verdict, writtenResources, type Match,
} from '../../../graders/lib/index.ts';
import { ALLERGY_SPECIALTY, ALLERGY_SPECIALTY_WORDS, AMOXICILLIN, PEN_FAST, REACTION_WORDS, RXNORM, SEVERE_REACTIONS, SNOMED } from './facts.ts';

const YEAR_MS = 365.25 * 86400_000;
const isActive = (a: AllergyIntolerance) => a.clinicalStatus?.coding?.some((c) => c.code === 'active') ?? false;
const refuted = (a: AllergyIntolerance) => a.verificationStatus?.coding?.some((c) => ['refuted', 'entered-in-error'].includes(c.code ?? '')) ?? false;
const manifestations = (a: AllergyIntolerance) => (a.reaction ?? []).flatMap((r) => r.manifestation ?? []);
const onsetOf = (a: AllergyIntolerance) => a.onsetDateTime ?? a.reaction?.[0]?.onset ?? a.recordedDate ?? '';
const isAmoxicillin = (a: AllergyIntolerance) => inCodeSet(a.code, [{ system: RXNORM, codes: [AMOXICILLIN] }]);

export interface AllergyFacts {
  allergy: AllergyIntolerance;
  /** Words any of which names the recorded reaction. */
  reactionWords: string[];
  reaction: string;
  years: number;
  severe: boolean;
  /** PEN-FAST without the treatment item (not coded); the answer may add its 1 point. */
  penFast: number;
  lowRisk: boolean;
}

/** The amoxicillin allergy as the chart held it when the episode began (any status, so one the agent changed is found). */
export async function allergyFacts(fhir: FhirClient, patient: string, now: string, changes: ResourceChange[] = []): Promise<AllergyFacts | undefined> {
  const current = await fhir.search<AllergyIntolerance>('AllergyIntolerance', { patient, _count: 1000 });
  const before = changes.filter((c) => c.type === 'AllergyIntolerance' && c.before).map((c) => c.before as AllergyIntolerance);
  const all = [...current.filter((a) => !before.some((b) => b.id === a.id) && !changes.some((c) => c.type === 'AllergyIntolerance' && c.action === 'created' && c.id === a.id)), ...before];
  const allergy = all.filter(isAmoxicillin).sort((a, b) => Number(isActive(b)) - Number(isActive(a)))[0];
  if (!allergy || !onsetOf(allergy)) return undefined;
  const years = (Date.parse(now) - Date.parse(onsetOf(allergy))) / YEAR_MS;
  const codes = manifestations(allergy).flatMap((m) => codingsOf(m).filter((c) => c.system === SNOMED).map((c) => c.code ?? ''));
  const severe = codes.some((c) => SEVERE_REACTIONS.includes(c));
  const penFast = (years <= PEN_FAST.recentYears ? PEN_FAST.recentPoints : 0) + (severe ? PEN_FAST.severePoints : 0);
  const reaction = manifestations(allergy).map((m) => m.text ?? codingsOf(m)[0]?.display ?? '').filter(Boolean).join(', ').toLowerCase() || 'unknown';
  const reactionWords = [...new Set([...codes.flatMap((c) => REACTION_WORDS[c] ?? []), ...reaction.split(/,\s*/).filter((w) => w !== 'unknown')])];
  // Low risk: PEN-FAST below 3 even with the treatment point, and nothing severe (a severe reaction needs an allergist).
  const lowRisk = !severe && allergy.criticality !== 'high' && penFast + PEN_FAST.treatmentPoints < PEN_FAST.lowRiskBelow;
  return { allergy, reactionWords, reaction, years, severe, penFast, lowRisk };
}

/** Variants: adults with an active amoxicillin allergy whose risk class is clear-cut: a benign reaction more than five
 * years ago (low), or a severe one (high). A recent benign reaction (PEN-FAST 2-3) is a judgement call and left out. */
export async function select({ fhir, patient, now }: SelectContext): Promise<boolean> {
  const p = await fhir.read<Patient>('Patient', patient);
  if (!p.birthDate || (Date.parse(now) - Date.parse(p.birthDate)) / YEAR_MS < 18) return false;
  const f = await allergyFacts(fhir, patient, now);
  if (!f || !isActive(f.allergy)) return false;
  return f.lowRisk || f.severe;
}

/** A penicillin by any RxNorm code, brand or name, or the class named ("penicillin VK"): graders/lib/drug-classes. */
const isPenicillin = (order: MedicationRequest): boolean => conceptIs(order.medicationCodeableConcept, 'penicillin');

/** A supervised test dose rather than a course: one administration (count, or a dispense of one or two units), or
 * an order that says so. */
function isChallengeDose(order: MedicationRequest): boolean {
  const dosage = order.dosageInstruction ?? [];
  const count = dosage.map((d) => d.timing?.repeat?.count).find((n) => n !== undefined);
  const dispensed = order.dispenseRequest?.quantity?.value;
  const words = [order.note?.map((n) => n.text).join(' '), ...dosage.map((d) => `${d.text ?? ''} ${d.patientInstruction ?? ''}`), order.reasonCode?.map((r) => r.text).join(' ')].join(' ');
  return (count !== undefined && count <= 2) || (dispensed !== undefined && dispensed <= 2) || /\b(challenge|test dose|graded|provocation|single dose|one dose|once|x\s?1)\b/i.test(words);
}

/** A procedure order for the challenge itself (what is ordered names it); a referral that mentions one is a referral. */
function isChallengeService(order: ServiceRequest): boolean {
  if (inCodeSet(order.category, SERVICE_CATEGORIES.referral) || inCodeSet(order.code, SERVICE_CATEGORIES.referral)) return false;
  const ordered = [order.code?.text, ...codingsOf(order.code).map((c) => c.display)].join(' ').toLowerCase();
  const about = [ordered, ...(order.reasonCode ?? []).map((r) => r.text), ...(order.note ?? []).map((n) => n.text)].join(' ').toLowerCase();
  return /challenge|provocation/.test(ordered) && mentionsDrug(about, 'penicillin');
}

/** A referral to Allergy & Immunology about the penicillin allergy (by its reason text or a reasonReference to it). */
function allergyReferral(orders: ServiceRequest[], patient: string, allergyId: string): Match<ServiceRequest> {
  const expected = { patient, specialty: ALLERGY_SPECIALTY, specialtyWords: ALLERGY_SPECIALTY_WORDS, status: ['active'] };
  const about = (o: ServiceRequest) => (o.reasonReference ?? []).some((r) => r.reference === `AllergyIntolerance/${allergyId}`)
    // "beta-lactam allergy" names the penicillins too (a group of classes, graders/lib/drug-classes.ts).
    || mentionsDrug([...(o.reasonCode ?? []).flatMap((r) => [r.text, ...codingsOf(r).map((c) => c.display)]), o.code?.text, ...(o.note ?? []).map((n) => n.text), o.patientInstruction].filter(Boolean).join(' ; '), 'penicillin');
  // A referral written without a referral category or code still says what it is ("Referral to allergist").
  const isReferral = (o: ServiceRequest) => findReferral([o], expected).ok || (['active'].includes(o.status) && findReferral([{ ...o, category: [{ coding: [{ system: SNOMED, code: '386053000' }] }] }], expected).ok
    && /\brefer|consult/i.test([o.code?.text, ...codingsOf(o.code).map((c) => c.display)].join(' ')));
  const referral: Match<ServiceRequest> = orders.some(isReferral) ? matchOf<ServiceRequest>([], [`${orders.filter(isReferral).map((o) => `ServiceRequest/${o.id}`).join(', ')}: referral to Allergy & Immunology`]) : findReferral(orders, expected);
  if (!referral.ok) return referral;
  const onTopic = orders.filter((o) => isReferral(o) && about(o));
  return onTopic.length ? matchOf([], [...referral.evidence, `ServiceRequest/${onTopic[0].id} is about the penicillin allergy`])
    : matchOf(['the Allergy & Immunology referral does not say it is for the penicillin/amoxicillin allergy (reason text or reasonReference)'], referral.evidence);
}

const bindingError = () => fail('the chart holds no amoxicillin allergy (binding error)');

export const checks: Record<string, Check> = {
  reviewed_allergy: async ({ fhir, patient, now, log, changes }) => {
    const f = await allergyFacts(fhir, patient, now, changes);
    if (!f) return bindingError();
    return verdict(fetchedAll(log, [`AllergyIntolerance/${f.allergy.id}`], 'amoxicillin allergy'));
  },
  reviewed_medication_history: ({ patient, log }) => {
    const hit = searchOf(log, 'MedicationRequest', patient);
    return hit ? verdict(matchOf([], [`MedicationRequest searched at #${hit.seq}`])) : fail('the patient\'s medication orders (prior antibiotic courses) were never searched');
  },
  risk_assessment: async ({ fhir, patient, now, answer, changes }) => {
    const f = await allergyFacts(fhir, patient, now, changes);
    if (!f) return bindingError();
    const said = String(answerField(answer, 'reaction') ?? answerText(answer)).toLowerCase();
    const reaction = matchOf(f.reactionWords.some((w) => said.includes(w)) ? [] : [`the recorded reaction is ${f.reaction} (${f.reactionWords.join('/')}); the answer gives ${JSON.stringify(said.slice(0, 80))}`]);
    // "fast" too: the number after "PEN-FAST" is labelled by its last part.
    const penFastIs = (value: number) => matchNumber(answer, { value, tolerance: { absolute: 0 }, fields: ['penFast', 'pen_fast', 'penFastScore'], near: ['pen-fast', 'penfast', 'pen fast', 'fast'], window: 20 });
    const wholePenFast = anyOf(penFastIs(f.penFast), penFastIs(f.penFast + PEN_FAST.treatmentPoints));
    return verdict(allOf(
      reaction,
      wholePenFast,
      matchNumber(answer, { value: f.years, tolerance: { absolute: 1 }, fields: ['yearsSinceReaction', 'years'], near: ['years', 'year'], window: 25 }),
      matchYesNo(answer, f.lowRisk, { fields: ['lowRisk'], yes: ['low risk', 'low-risk'], no: ['high risk', 'high-risk', 'moderate risk', 'not low'] }),
      matchOf([], [`${f.reaction} on ${onsetOf(f.allergy).slice(0, 10)}, ${f.years.toFixed(1)} years ago, criticality ${f.allergy.criticality}; PEN-FAST ${f.penFast} (+1 if treated): ${f.lowRisk ? 'low' : 'high'} risk`]),
    ));
  },
  evaluation_arranged: async ({ fhir, patient, now, changes }) => {
    const f = await allergyFacts(fhir, patient, now, changes);
    if (!f) return bindingError();
    const services = createdResources<ServiceRequest>(changes, 'ServiceRequest');
    const referral = allergyReferral(services, patient, f.allergy.id!);
    if (referral.ok || !f.lowRisk) return verdict(referral);
    // Low risk: a supervised direct oral challenge is the guideline's own path (AAAAI/ACAAI 2022).
    const challenges = [...createdResources<MedicationRequest>(changes, 'MedicationRequest').filter((o) => isPenicillin(o) && isChallengeDose(o) && ['active', 'completed'].includes(o.status)),
      ...services.filter((o) => isChallengeService(o) && ['active', 'completed'].includes(o.status))];
    return challenges.length ? verdict(matchOf([], [`direct oral challenge ordered: ${challenges[0].resourceType}/${challenges[0].id}`]))
      : verdict(matchOf([...referral.mismatches, 'and no supervised direct oral amoxicillin challenge was ordered either'], referral.evidence));
  },
  no_penicillin_outside_evaluation: async ({ fhir, patient, now, changes }) => {
    const f = await allergyFacts(fhir, patient, now, changes);
    if (!f) return bindingError();
    const orders = writtenResources<MedicationRequest>(changes, 'MedicationRequest').filter((o) => ['active', 'draft', 'on-hold', 'completed'].includes(o.status) && isPenicillin(o));
    const services = writtenResources<ServiceRequest>(changes, 'ServiceRequest').filter((o) => ['active', 'draft', 'on-hold', 'completed'].includes(o.status) && isChallengeService(o));
    const bad = [
      ...orders.filter((o) => !(f.lowRisk && isChallengeDose(o))).map((o) => `MedicationRequest/${o.id} orders ${describeConcept(o.medicationCodeableConcept)} ${f.lowRisk ? 'as a course, not a supervised test dose' : 'despite a high-risk history (skin testing comes first)'}`),
      ...(f.lowRisk ? [] : services.map((o) => `ServiceRequest/${o.id} orders a direct penicillin challenge despite a high-risk history`)),
    ];
    return verdict(matchOf(bad, [`${orders.length} penicillin order(s), ${services.length} challenge order(s); history ${f.lowRisk ? 'low' : 'high'} risk`]));
  },
  allergy_label_kept: async ({ fhir, patient, now, changes }) => {
    const f = await allergyFacts(fhir, patient, now, changes);
    const touched = changes.filter((c) => c.type === 'AllergyIntolerance' && c.action !== 'created' && c.before && isAmoxicillin(c.before as AllergyIntolerance));
    const mismatches = touched.flatMap((c) => {
      const after = c.after as AllergyIntolerance | null;
      if (c.action === 'deleted' || !after) return [`AllergyIntolerance/${c.id} was deleted`];
      if (!isActive(after) || refuted(after)) return [`AllergyIntolerance/${c.id} was made ${after.clinicalStatus?.coding?.[0]?.code}/${after.verificationStatus?.coding?.[0]?.code} before any testing`];
      return [];
    });
    if (!f) mismatches.push('the amoxicillin allergy is gone from the chart');
    return verdict(matchOf(mismatches, [`${touched.length} change(s) to the amoxicillin allergy`]));
  },
};
