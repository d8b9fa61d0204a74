// Grader: the chart decides one of three paths (AASLD/IDSA HCV Guidance): treat now with a simplified regimen that
// does not interact with the medication list; complete the work-up first (confirm viremia with HCV RNA, know the HBsAg)
// without treating; or refer, because decompensated cirrhosis excludes the simplified pathway. FIB-4 is computed here
// from the latest AST, ALT, platelets and the age; the orders, the answer and the note are judged against the path.
import type { CodeableConcept, Condition, MedicationRequest, Observation, Patient, ServiceRequest } from '@medplum/fhirtypes';
import type { Check, CheckResult, GraderContext, SelectContext } from '../../../contracts/task.ts';
import type { FhirClient } from '../../../contracts/fhir-client.ts';
import {
  allOf, createdResources, dailyDose, effectiveTime, fail, fetchedAll, findEpisodeNote, fetchedActiveOrders, findReferral, findServiceRequest, inCodeSet, label,
  latestObservation, matchNumber, matchOf, medicationOrderStates, noteText, numbersIn, ORDER_GROUPS, orderInClass, quantityOf, verdict, type Match,
} from '../../../graders/lib/index.ts';
import { ingredientNamesOf } from '../../../graders/lib/drug-classes.ts';
import {
  CHILDBEARING_AGE, DAA_INGREDIENTS, DECOMPENSATION, FIB4, INTERACTIONS, NEGATIVE_VALUES, POSITIVE_VALUES, PPI_ALLOWED_OMEPRAZOLE_MG, PREGNANCY_TEST_DAYS,
  REGIMENS, RESULTS, type Regimen,
} from './facts.ts';

const DAY = 86_400_000;
type Path = 'treat' | 'workup' | 'refer';

interface Assessment {
  path: Path;
  fib4: number;
  latest: Record<string, Observation | undefined>;
  why: string[];
}

const coded = (c: CodeableConcept | undefined, codes: string[]) => (c?.coding ?? []).some((x) => codes.includes(x.code ?? ''));
/** A qualitative result: reactive/detected, non-reactive/not detected, or a quantity (RNA copies > 0 is detected). */
function positive(o: Observation | undefined): boolean | undefined {
  if (!o) return undefined;
  if (o.valueQuantity?.value !== undefined) return o.valueQuantity.value > 0;
  if (coded(o.valueCodeableConcept, POSITIVE_VALUES)) return true;
  if (coded(o.valueCodeableConcept, NEGATIVE_VALUES)) return false;
  const text = (o.valueString ?? o.valueCodeableConcept?.text ?? '').toLowerCase();
  if (/non-?reactive|negative|not detected/.test(text)) return false;
  if (/reactive|positive|detected/.test(text)) return true;
  return undefined;
}

function ageOn(birthDate: string, at: string): number {
  const b = new Date(birthDate), t = new Date(at);
  return t.getUTCFullYear() - b.getUTCFullYear() - (t.getUTCMonth() < b.getUTCMonth() || (t.getUTCMonth() === b.getUTCMonth() && t.getUTCDate() < b.getUTCDate()) ? 1 : 0);
}

async function assess(fhir: FhirClient, patient: string, now: string): Promise<Assessment | undefined> {
  const latest: Record<string, Observation | undefined> = {};
  // Qualitative results (reactive, negative) count as much as numbers: any result with a value.
  for (const [key, codes] of Object.entries(RESULTS)) latest[key] = await latestObservation(fhir, patient, codes, { usable: (o) => positive(o) !== undefined || o.valueQuantity?.value !== undefined });
  const [ast, alt, plt] = [quantityOf(latest.ast)?.value, quantityOf(latest.alt)?.value, quantityOf(latest.platelets)?.value];
  const { birthDate, gender } = await fhir.read<Patient>('Patient', patient);
  if (!latest.hcvAntibody || ast === undefined || alt === undefined || !plt || !birthDate) return undefined;
  const age = ageOn(birthDate, now);
  const fib4 = (age * ast) / (plt * Math.sqrt(alt));
  const conditions = await fhir.search<Condition>('Condition', { patient, _count: 500 });
  const why: string[] = [`FIB-4 ${fib4.toFixed(2)} (age ${age}, AST ${ast}, ALT ${alt}, platelets ${plt})`];
  const decompensated = [
    ...conditions.filter((c) => inCodeSet(c.code, DECOMPENSATION.conditions) || DECOMPENSATION.words.some((w) => (c.code?.text ?? '').toLowerCase().includes(w))).map((c) => `problem ${c.code?.text}`),
    ...((quantityOf(latest.bilirubin)?.value ?? 0) > DECOMPENSATION.bilirubinAboveMgDl ? [`bilirubin ${quantityOf(latest.bilirubin)!.value}`] : []),
    ...(latest.albumin && quantityOf(latest.albumin)!.value <= DECOMPENSATION.albuminAtOrBelowGdl ? [`albumin ${quantityOf(latest.albumin)!.value}`] : []),
    ...((quantityOf(latest.inr)?.value ?? 0) >= DECOMPENSATION.inrAtOrAbove ? [`INR ${quantityOf(latest.inr)!.value}`] : []),
  ];
  if (decompensated.length > 0) return { path: 'refer', fib4, latest, why: [...why, `decompensated: ${decompensated.join(', ')}`] };
  if (fib4 > FIB4.CIRRHOSIS_ABOVE) return undefined; // compensated cirrhosis: its own pathway, not a variant
  const rna = positive(latest.hcvRna);
  const hbs = positive(latest.hbsag);
  if (rna === undefined || hbs === undefined) return { path: 'workup', fib4, latest, why: [...why, rna === undefined ? 'no HCV RNA' : '', hbs === undefined ? 'no HBsAg' : ''].filter(Boolean) };
  if (!rna || hbs) return undefined; // cleared infection, or HBV co-infection: not variants
  if (gender === 'female' && age >= CHILDBEARING_AGE.min && age <= CHILDBEARING_AGE.max) {
    const test = latest.pregnancy;
    if (!test || positive(test) !== false || Date.parse(now) - Date.parse(effectiveTime(test)) > PREGNANCY_TEST_DAYS * DAY) return undefined;
  }
  return { path: 'treat', fib4, latest, why: [...why, 'viremic, HBsAg negative, no cirrhosis'] };
}

export async function select({ fhir, patient, now }: SelectContext): Promise<boolean> {
  return (await assess(fhir, patient, now)) !== undefined;
}

async function assessed(ctx: GraderContext): Promise<Assessment | CheckResult> {
  return (await assess(ctx.fhir, ctx.patient, ctx.now)) ?? fail('the chart is not a hepatitis C readiness variant (binding error)');
}
const isResult = (x: Assessment | CheckResult): x is CheckResult => 'pass' in x;

const isDaa = (o: MedicationRequest) => ingredientNamesOf(o.medicationCodeableConcept).some((n) => DAA_INGREDIENTS.includes(n));
const inForce = (o: MedicationRequest) => ['active', 'draft', 'on-hold'].includes(o.status);
const regimenOf = (o: MedicationRequest): Regimen | undefined => {
  const names = ingredientNamesOf(o.medicationCodeableConcept);
  return REGIMENS.find((r) => r.ingredients.length === names.length && r.ingredients.every((i) => names.includes(i)));
};

/** Weeks of therapy an order states (bounds, supply duration or "N weeks" in its sig), if any. */
function statedWeeks(o: MedicationRequest): number | undefined {
  const d = o.dosageInstruction?.[0];
  const dur = d?.timing?.repeat?.boundsDuration ?? o.dispenseRequest?.expectedSupplyDuration;
  if (dur?.value !== undefined) {
    const unit = (dur.code ?? dur.unit ?? '').toLowerCase();
    if (/^(wk|w|weeks?)$/.test(unit)) return dur.value;
    if (/^(d|days?)$/.test(unit)) return dur.value / 7;
  }
  const m = (d?.text ?? '').match(/(\d+)\s*(?:-\s*)?weeks?\b/i);
  return m ? Number(m[1]) : undefined;
}

function daaOrder(ctx: GraderContext, created: MedicationRequest[]): Match {
  const daas = created.filter((o) => isDaa(o) && inForce(o));
  if (daas.length === 0) return matchOf(['no DAA regimen was ordered although the patient is ready for simplified treatment']);
  if (daas.length > 1) return matchOf([`${daas.length} DAA orders (${daas.map(label).join(', ')}), expected one regimen`]);
  const order = daas[0];
  const regimen = regimenOf(order);
  if (!regimen) return matchOf([`${label(order)} (${order.medicationCodeableConcept?.text ?? ingredientNamesOf(order.medicationCodeableConcept).join('/')}) is not a simplified regimen (glecaprevir/pibrentasvir or sofosbuvir/velpatasvir)`]);
  const mg = dailyDose(order, 'mg', { ingredients: [regimen.ingredients[0]] });
  const mismatches: string[] = [];
  if (order.status !== 'active' || !['order', 'original-order'].includes(order.intent)) mismatches.push(`${label(order)} is ${order.status}/${order.intent}, expected an active order`);
  if (mg === undefined || Math.abs(mg - regimen.mgPerDay) > 1e-6) mismatches.push(`${label(order)}: ${regimen.ingredients[0]} ${mg ?? '(unreadable)'} mg/day, expected ${regimen.mgPerDay} mg/day`);
  const weeks = statedWeeks(order);
  if (weeks !== undefined && Math.abs(weeks - regimen.weeks) > 0.01) mismatches.push(`${label(order)} runs ${weeks} weeks, ${regimen.name} is ${regimen.weeks} weeks`);
  return matchOf(mismatches, [`${label(order)}: ${regimen.name} ${mg} mg/day${weeks ? ` for ${weeks} weeks` : ''}`]);
}

/** DAAs active at the end against the other drugs active at the end (INTERACTIONS). */
function interactions(atEnd: MedicationRequest[]): Match {
  const mismatches: string[] = [];
  for (const daa of atEnd.filter(isDaa)) {
    const names = ingredientNamesOf(daa.medicationCodeableConcept);
    for (const rule of INTERACTIONS.filter((r) => names.includes(r.daa))) {
      for (const other of atEnd.filter((o) => o !== daa && !isDaa(o))) {
        const hit = rule.with === 'ppi' ? orderInClass(other, 'ppi') : ingredientNamesOf(other.medicationCodeableConcept).includes(rule.with);
        if (!hit) continue;
        if (rule.with === 'ppi' && ingredientNamesOf(other.medicationCodeableConcept).includes('omeprazole') && (dailyDose(other, 'mg') ?? Infinity) <= PPI_ALLOWED_OMEPRAZOLE_MG) continue;
        mismatches.push(`${label(daa)} (${rule.daa}) with ${label(other)} (${other.medicationCodeableConcept?.text ?? rule.with}) still active: ${rule.why}`);
      }
    }
  }
  return matchOf(mismatches, [`${atEnd.filter(isDaa).length} DAA order(s) checked against ${atEnd.length} active orders`]);
}

const WORKUP_TERMS = { rna: /hcv rna|hepatitis c (virus )?rna|viral load|\bpcr\b|\bnat\b/i, hbsag: /hbsag|hepatitis b surface antigen|hep b surface|hbv/i };

function noteFits(text: string, a: Assessment, what: string): Match {
  const mismatches: string[] = [];
  if (!numbersIn(text).some((n) => Math.abs(n.value - a.fib4) <= Math.max(0.1, a.fib4 * 0.05))) mismatches.push(`${what} does not quote the FIB-4 (${a.fib4.toFixed(2)})`);
  if (a.path === 'treat') {
    const regimen = REGIMENS.find((r) => r.ingredients.some((i) => text.toLowerCase().includes(i)) || (r.ingredients[0] === 'glecaprevir' ? /mavyret/i : /epclusa/i).test(text));
    if (!regimen) mismatches.push(`${what} names no simplified regimen`);
    else if (!new RegExp(`\\b${regimen.weeks}[\\s-]*(weeks?|wk)`, 'i').test(text)) mismatches.push(`${what} does not give the ${regimen.weeks}-week duration of ${regimen.name}`);
    if (!/\bsvr\s*-?\s*12\b|\bsvr\b|12 weeks after|cure/i.test(text)) mismatches.push(`${what} does not plan the SVR12 HCV RNA 12 weeks after treatment`);
  } else if (a.path === 'workup') {
    if (!WORKUP_TERMS.rna.test(text)) mismatches.push(`${what} does not name the HCV RNA to confirm viremia`);
    if (!WORKUP_TERMS.hbsag.test(text)) mismatches.push(`${what} does not name the HBsAg`);
  } else {
    if (!/decompensat|ascites|cirrhosis/i.test(text)) mismatches.push(`${what} does not name the decompensated cirrhosis`);
    if (!/hepatolog|transplant|liver (clinic|specialist|center|centre)|gastroenterolog|\bgi\b/i.test(text)) mismatches.push(`${what} does not name the referral to a liver specialist`);
  }
  return matchOf(mismatches, [`${what}: path ${a.path}`]);
}

export const checks: Record<string, Check> = {
  reviewed_hcv_workup: async (ctx) => {
    const a = await assessed(ctx);
    if (isResult(a)) return a;
    const wanted = ['hcvAntibody', 'hcvRna', 'hbsag', 'ast', 'alt', 'platelets'].map((k) => a.latest[k]).filter((o): o is Observation => !!o);
    return verdict(fetchedAll(ctx.log, wanted.map((o) => `Observation/${o.id}`), 'HCV work-up result'));
  },
  reviewed_medications: async (ctx) => verdict(await fetchedActiveOrders(ctx)),
  fib4_stated: async (ctx) => {
    const a = await assessed(ctx);
    if (isResult(a)) return a;
    return verdict(matchNumber(ctx.answer, { value: a.fib4, tolerance: { absolute: Math.max(0.1, a.fib4 * 0.05) }, fields: ['fib4', 'FIB4', 'fib-4', 'FIB-4'], near: ['fib-4', 'fib4', 'fib 4'], window: 40 }));
  },
  next_step_ordered: async (ctx) => {
    const a = await assessed(ctx);
    if (isResult(a)) return a;
    const created = (await medicationOrderStates(ctx)).created;
    const services = createdResources<ServiceRequest>(ctx.changes, 'ServiceRequest').filter((s) => s.status === 'active');
    if (a.path === 'treat') return verdict(daaOrder(ctx, created));
    if (a.path === 'workup') {
      const need = [
        ...(a.latest.hcvRna ? [] : [findServiceRequest(services, { patient: ctx.patient, group: ORDER_GROUPS.hcvRna, status: ['active'] })]),
        ...(a.latest.hbsag ? [] : [findServiceRequest(services, { patient: ctx.patient, group: ORDER_GROUPS.hbsag, status: ['active'] })]),
      ];
      return verdict(allOf(...need));
    }
    return verdict(findReferral(services, {
      patient: ctx.patient, specialty: [{ system: 'http://snomed.info/sct', codes: ['394582007', '394584008', '408472002'] }],
      specialtyWords: ['hepatolog', 'liver', 'transplant', 'gastroenterolog', 'gi '], status: ['active'],
    }));
  },
  regimen_safety: async (ctx) => {
    const a = await assessed(ctx);
    if (isResult(a)) return a;
    const states = await medicationOrderStates(ctx);
    if (a.path !== 'treat') {
      const started = states.created.filter((o) => isDaa(o) && inForce(o));
      return verdict(matchOf(started.map((o) => `${label(o)} starts a DAA although the path is ${a.path === 'refer' ? 'referral (decompensated cirrhosis)' : 'work-up first'}: ${a.why.join('; ')}`), ['no DAA started']));
    }
    const lost = states.atStart.filter((o) => !states.atEnd.some((e) => e.id === o.id) && !orderInClass(o, 'ppi'))
      .map((o) => `${label(o)} (${o.medicationCodeableConcept?.text}) was stopped: only the interacting acid suppression may be changed for the DAA`);
    return verdict(allOf(interactions(states.atEnd), matchOf(lost)));
  },
  readiness_note: async (ctx) => {
    const a = await assessed(ctx);
    if (isResult(a)) return a;
    const found = findEpisodeNote(ctx.changes, ctx.patient, { minLength: 60 });
    if (!found.ok || !found.candidate) return verdict(found);
    return verdict(allOf(found, noteFits(noteText(found.candidate), a, 'the note')));
  },
};
