// Grader: the chart as it stood at the start decides (iPLEDGE REMS; isotretinoin label; AAD 2024) whether the next
// 30-day isotretinoin supply may be prescribed - for a patient who can become pregnant, only with a negative
// pregnancy test collected within 7 days and two forms of contraception documented this month - what must be ordered
// (a new pregnancy test when the last one is out of the window; lipids and ALT when the baseline or peak-dose check is
// missing) and which interacting drug must be stopped (tetracyclines, vitamin A). Orders, answer and note are judged
// against that.
import type { Condition, MedicationRequest, Observation, Patient, ServiceRequest } from '@medplum/fhirtypes';
import type { Check, CheckResult, GraderContext, SelectContext } from '../../../contracts/task.ts';
import type { ResourceChange } from '../../../contracts/gym-api.ts';
import type { FhirClient } from '../../../contracts/fhir-client.ts';
import {
  allOf, asAtStart, createdResources, dailyDose, effectiveTime, fail, fetchedAll, fetchedActiveOrders, findEpisodeNote, findReferral, findServiceRequest, inCodeSet, isNoLongerActive, label,
  latestObservation, matchOf, matchYesNo, noteText, observations, ORDER_GROUPS, orderInClass, valueIn, verdict, type Match,
} from '../../../graders/lib/index.ts';
import { ingredientNamesOf } from '../../../graders/lib/drug-classes.ts';
import {
  ALT, BODY_WEIGHT, CANNOT_CONCEIVE, CONTRACEPTION, DEPRESSION, DOSE_MG_PER_KG, MENTAL_HEALTH, PHQ9, FOLLOW_UP_LABS_AFTER_MONTHS, INTERACTING, IPLEDGE, ISOTRETINOIN, LIPIDS, NEGATIVE_VALUES, PREGNANCY_TEST,
} from './facts.ts';

const DAY = 86_400_000;
const isIso = (o: MedicationRequest) => ingredientNamesOf(o.medicationCodeableConcept).includes(ISOTRETINOIN);
const inForce = (o: MedicationRequest) => ['active', 'draft'].includes(o.status) && ['order', 'original-order', 'instance-order', 'plan', 'proposal'].includes(o.intent);
const isInteracting = (o: MedicationRequest) => INTERACTING.classes.some((c) => orderInClass(o, c)) || ingredientNamesOf(o.medicationCodeableConcept).some((n) => INTERACTING.ingredients.includes(n));

interface Assessment {
  canConceive: boolean;
  pregnancyTest?: Observation;
  testOk: boolean;
  contraception?: Observation;
  forms: string[];
  contraceptionOk: boolean;
  isoAtStart: MedicationRequest[];
  latestLipid?: Observation;
  latestAlt?: Observation;
  labsMissing: boolean;
  interacting: MedicationRequest[];
  phq9?: Observation;
  depressed: boolean;
  kg?: number;
  renew: boolean;
  why: string[];
}

const notCreated = (changes: ResourceChange[]) => (o: Observation) => !changes.some((c) => c.type === 'Observation' && c.id === o.id && c.action === 'created');

async function assess(fhir: FhirClient, patient: string, now: string, changes: ResourceChange[] = []): Promise<Assessment | undefined> {
  const all = asAtStart(await fhir.search<MedicationRequest>('MedicationRequest', { patient, _count: 1000 }), changes, 'MedicationRequest', patient);
  const isoAtStart = all.filter(isIso);
  if (!isoAtStart.some((o) => o.status === 'active')) return undefined;
  const started = Math.min(...isoAtStart.map((o) => Date.parse(o.authoredOn ?? now)));
  const monthsOn = (Date.parse(now) - started) / (30.44 * DAY);
  const { gender, birthDate } = await fhir.read<Patient>('Patient', patient);
  const age = (Date.parse(now) - Date.parse(birthDate ?? now)) / (365.2425 * DAY);
  const conditions = await fhir.search<Condition>('Condition', { patient, _count: 500 });
  const cannot = conditions.some((c) => inCodeSet(c.code, CANNOT_CONCEIVE.codes) || CANNOT_CONCEIVE.words.some((w) => (c.code?.text ?? '').toLowerCase().includes(w)));
  const canConceive = gender === 'female' && age >= IPLEDGE.childbearingAge.min && age < IPLEDGE.childbearingAge.max + 1 && !cannot;
  const chart = notCreated(changes);
  const why: string[] = [];
  let testOk = true, contraceptionOk = true, forms: string[] = [];
  let pregnancyTest: Observation | undefined, contraception: Observation | undefined;
  if (canConceive) {
    pregnancyTest = await latestObservation(fhir, patient, PREGNANCY_TEST, { usable: (o) => chart(o) && (!!o.valueCodeableConcept || o.valueQuantity?.value !== undefined) });
    const negative = !!pregnancyTest && ((pregnancyTest.valueCodeableConcept?.coding ?? []).some((c) => NEGATIVE_VALUES.includes(c.code ?? '')) || /negative/i.test(pregnancyTest.valueCodeableConcept?.text ?? '')
      || (pregnancyTest.valueQuantity?.value !== undefined && pregnancyTest.valueQuantity.value < 5));
    const days = pregnancyTest ? (Date.parse(now) - Date.parse(effectiveTime(pregnancyTest))) / DAY : Infinity;
    testOk = negative && days <= IPLEDGE.pregnancyTestWithinDays;
    why.push(pregnancyTest ? `pregnancy test ${negative ? 'negative' : 'not negative'} ${days.toFixed(0)} days ago` : 'no pregnancy test');
    contraception = (await observations(fhir, patient, CONTRACEPTION)).find(chart);
    forms = (contraception?.component ?? []).map((c) => c.valueString ?? c.valueCodeableConcept?.text).filter((v): v is string => !!v);
    const recordDays = contraception ? (Date.parse(now) - Date.parse(effectiveTime(contraception))) / DAY : Infinity;
    contraceptionOk = forms.length >= IPLEDGE.contraceptionFormsRequired && recordDays <= IPLEDGE.contraceptionDocumentedWithinDays;
    why.push(`${forms.length} contraception form(s) documented ${recordDays.toFixed(0)} days ago`);
  } else why.push('cannot become pregnant');
  const lipids = (await observations(fhir, patient, LIPIDS)).filter(chart);
  const alts = (await observations(fhir, patient, ALT)).filter(chart);
  const at = (o: Observation) => Date.parse(effectiveTime(o));
  const baseline = lipids.some((o) => at(o) <= started) && alts.some((o) => at(o) <= started);
  const followUp = lipids.some((o) => at(o) > started) && alts.some((o) => at(o) > started);
  const labsMissing = !baseline || (monthsOn >= FOLLOW_UP_LABS_AFTER_MONTHS && !followUp);
  if (labsMissing) why.push('monitoring lipids/ALT missing');
  const interacting = all.filter((o) => o.status === 'active' && isInteracting(o));
  if (interacting.length) why.push(`interacting: ${interacting.map(label).join(', ')}`);
  const phq9 = await latestObservation(fhir, patient, PHQ9, { usable: (o) => chart(o) && o.valueQuantity?.value !== undefined });
  const score = phq9?.valueQuantity?.value ?? 0;
  if (score >= DEPRESSION.judgementFrom && score < DEPRESSION.holdAtLeast) return undefined; // hold or monitor: a judgement call
  const depressed = score >= DEPRESSION.holdAtLeast;
  if (depressed) why.push(`PHQ-9 ${score}`);
  const kg = valueIn(await latestObservation(fhir, patient, BODY_WEIGHT, { usable: (o) => chart(o) && o.valueQuantity?.value !== undefined }), 'kg');
  return { canConceive, pregnancyTest, testOk, contraception, forms, contraceptionOk, isoAtStart, latestLipid: lipids[0], latestAlt: alts[0], labsMissing, interacting, phq9, depressed, kg, renew: testOk && contraceptionOk && !depressed, why };
}

/** Variants: an active isotretinoin prescription. */
export async function select({ fhir, patient, now }: SelectContext): Promise<boolean> {
  return (await assess(fhir, patient, now)) !== undefined;
}
async function assessed(ctx: GraderContext): Promise<Assessment | CheckResult> {
  return (await assess(ctx.fhir, ctx.patient, ctx.now, ctx.changes)) ?? fail('the chart is not an isotretinoin review variant (binding error)');
}
const isResult = (x: Assessment | CheckResult): x is CheckResult => 'pass' in x;

/** Prescriptions for the next month: new isotretinoin orders in force, or an existing one re-issued by an update. */
function renewals(changes: ResourceChange[]): MedicationRequest[] {
  const created = createdResources<MedicationRequest>(changes, 'MedicationRequest').filter((o) => isIso(o) && inForce(o));
  const reissued = changes.filter((c) => c.type === 'MedicationRequest' && c.action === 'updated' && c.after && c.before).map((c) => [c.before as MedicationRequest, c.after as MedicationRequest] as const)
    .filter(([b, a]) => isIso(a) && inForce(a) && (a.authoredOn !== b.authoredOn || JSON.stringify(a.dispenseRequest) !== JSON.stringify(b.dispenseRequest))).map(([, a]) => a);
  return [...created, ...reissued];
}

function supplyDays(o: MedicationRequest): number | undefined {
  const d = o.dispenseRequest?.expectedSupplyDuration;
  if (d?.value === undefined) return undefined;
  const unit = (d.code ?? d.unit ?? '').toLowerCase();
  return /^(wk|weeks?)$/.test(unit) ? d.value * 7 : /^(mo|months?)$/.test(unit) ? d.value * 30 : d.value;
}

function renewalFits(o: MedicationRequest, a: Assessment): Match {
  const mismatches: string[] = [];
  const mg = dailyDose(o, 'mg');
  if (mg === undefined) mismatches.push(`${label(o)}: daily dose unreadable`);
  else if (a.kg && (mg < DOSE_MG_PER_KG.min * a.kg * 0.98 || mg > DOSE_MG_PER_KG.max * a.kg * 1.02)) mismatches.push(`${label(o)}: ${mg} mg/day = ${(mg / a.kg).toFixed(2)} mg/kg, outside ${DOSE_MG_PER_KG.min}-${DOSE_MG_PER_KG.max} mg/kg/day`);
  const days = supplyDays(o);
  if (days !== undefined && days > IPLEDGE.maxSupplyDays) mismatches.push(`${label(o)}: ${days}-day supply, iPLEDGE allows at most ${IPLEDGE.maxSupplyDays}`);
  if ((o.dispenseRequest?.numberOfRepeatsAllowed ?? 0) > 0) mismatches.push(`${label(o)}: ${o.dispenseRequest!.numberOfRepeatsAllowed} refill(s); iPLEDGE prescriptions have none`);
  return matchOf(mismatches, [`${label(o)}: ${mg} mg/day`]);
}

const RENEW_YES = ['renewed', 'renewing', 'renew it', 'refilled', 'prescription sent', 'sent the prescription', 'approved', 'next month prescribed', 'prescribed the next', 'requirements met', 'ok to continue'];
const RENEW_NO = ['not renewed', 'not renew', 'not renewing', 'do not renew', "don't renew", 'cannot renew', 'can not renew', 'not refilled', 'on hold', 'holding', 'hold the', 'held', 'deferred', 'not yet', 'not prescribed', 'no renewal', 'not eligible', 'requirements not met'];

export const checks: Record<string, Check> = {
  reviewed_ipledge_inputs: async (ctx) => {
    const a = await assessed(ctx);
    if (isResult(a)) return a;
    const wanted = [...a.isoAtStart, a.pregnancyTest, a.contraception, a.latestLipid, a.latestAlt, a.phq9].filter((r): r is NonNullable<typeof r> => !!r);
    return verdict(fetchedAll(ctx.log, wanted.map(label), 'isotretinoin order, latest pregnancy test, contraception record, lipids, ALT or PHQ-9'));
  },
  reviewed_medications: async (ctx) => verdict(await fetchedActiveOrders(ctx)),
  renewal_decision: async (ctx) => {
    const a = await assessed(ctx);
    if (isResult(a)) return a;
    const next = renewals(ctx.changes);
    if (!a.renew) return verdict(matchOf(next.map((o) => `${label(o)} prescribes isotretinoin although the iPLEDGE requirements do not hold: ${a.why.join('; ')}`), [`not renewed: ${a.why.join('; ')}`]));
    if (next.length !== 1) return verdict(matchOf([`${next.length} isotretinoin prescriptions for the next month, expected one (requirements met: ${a.why.join('; ')})`]));
    return verdict(renewalFits(next[0], a));
  },
  missing_items_ordered: async (ctx) => {
    const a = await assessed(ctx);
    if (isResult(a)) return a;
    const services = createdResources<ServiceRequest>(ctx.changes, 'ServiceRequest').filter((s) => s.status === 'active');
    const need: Match[] = [];
    if (a.canConceive && !a.testOk) need.push(findServiceRequest(services, { patient: ctx.patient, group: ORDER_GROUPS.pregnancyTest, status: ['active'] }));
    if (a.labsMissing) need.push(findServiceRequest(services, { patient: ctx.patient, group: ORDER_GROUPS.lipids, status: ['active'] }), findServiceRequest(services, { patient: ctx.patient, group: ORDER_GROUPS.hepaticFunction, status: ['active'] }));
    if (a.depressed) need.push(findReferral(services, { patient: ctx.patient, specialty: MENTAL_HEALTH.specialty, specialtyWords: MENTAL_HEALTH.words, status: ['active'] }));
    return verdict(need.length ? allOf(...need) : matchOf([], ['nothing missing to order']));
  },
  interactions_stopped: async (ctx) => {
    const a = await assessed(ctx);
    if (isResult(a)) return a;
    const end = await ctx.fhir.search<MedicationRequest>('MedicationRequest', { patient: ctx.patient, _count: 1000 });
    const byId = new Map(end.map((o) => [o.id, o]));
    const mismatches = a.interacting.filter((o) => !isNoLongerActive(byId.get(o.id))).map((o) => `${label(o)} (${o.medicationCodeableConcept?.text}) is still active: tetracyclines with isotretinoin cause pseudotumor cerebri; vitamin A adds to its toxicity`);
    const added = createdResources<MedicationRequest>(ctx.changes, 'MedicationRequest').filter((o) => inForce(o) && isInteracting(o)).map((o) => `${label(o)} adds an interacting drug`);
    const lost = asAtStart(end, ctx.changes, 'MedicationRequest', ctx.patient).filter((o) => o.status === 'active' && !isIso(o) && !isInteracting(o) && isNoLongerActive(byId.get(o.id)))
      .map((o) => `${label(o)} was stopped without a reason in this review`);
    return verdict(matchOf([...mismatches, ...added, ...lost], [`${a.interacting.length} interacting order(s) at the start`]));
  },
  answer_decision: async (ctx) => {
    const a = await assessed(ctx);
    if (isResult(a)) return a;
    return verdict(matchYesNo(ctx.answer, a.renew, { fields: ['renewed', 'renew'], yes: RENEW_YES, no: RENEW_NO }));
  },
  review_note: async (ctx) => {
    const a = await assessed(ctx);
    if (isResult(a)) return a;
    const found = findEpisodeNote(ctx.changes, ctx.patient, { minLength: 60 });
    if (!found.ok || !found.candidate) return verdict(found);
    const text = noteText(found.candidate);
    const mismatches: string[] = [];
    const direction = matchYesNo(text, a.renew, { yes: RENEW_YES, no: RENEW_NO });
    if (!direction.ok) mismatches.push(`the note does not say the prescription was ${a.renew ? 'renewed' : 'withheld'}: ${direction.mismatches.join('; ')}`);
    if (a.canConceive && !a.testOk && !/pregnan|\bhcg\b/i.test(text)) mismatches.push('the note does not name the pregnancy test that is missing');
    if (a.canConceive && !a.contraceptionOk && !/contracept|birth control|two forms|2 forms/i.test(text)) mismatches.push('the note does not name the missing second form of contraception');
    if (a.depressed && !/depress|phq|mood|suicid|mental health|psychiatr/i.test(text)) mismatches.push('the note does not name the depressive symptoms (PHQ-9) that stop the renewal');
    if (a.interacting.length && !/doxycycline|minocycline|tetracycline|vitamin a/i.test(text)) mismatches.push('the note does not name the interacting drug stopped');
    return verdict(allOf(found, matchOf(mismatches, [a.why.join('; ')])));
  },
};
