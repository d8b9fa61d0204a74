// Grader: the urine culture and the chart as they stood at the start decide. The susceptibility panel says which
// cystitis agents are active (facts.ts, with CLSI surrogates); allergies, the Cockcroft-Gault clearance, pregnancy
// (first trimester from the due date) and QT risk say which are safe; fluoroquinolones only when nothing else is. The
// empiric antibiotic is kept when it is active and safe, and otherwise stopped and replaced by one of the acceptable
// agents at a renally appropriate dose. Every acceptable agent passes; the answer and the note must name it.
import type { AllergyIntolerance, Condition, DiagnosticReport, DocumentReference, MedicationRequest, Observation, Patient } from '@medplum/fhirtypes';
import type { Check, CheckResult, GraderContext, SelectContext } from '../../../contracts/task.ts';
import type { FhirClient } from '../../../contracts/fhir-client.ts';
import {
  answerText, asAtStart, codingsOf, createdResources, dailyDose, describeConcept, drugIngredients, fail, fetchedAll, isNoLongerActive, latestObservation, matchOf, noteText,
  orderDoseIn, orderTimesPerDay, valueIn, verdict,
} from '../../../graders/lib/index.ts';
import { classesOfOrder, expandClass, ingredientNamesInText, ingredientNamesOf, mentionsDrug } from '../../../graders/lib/drug-classes.ts';
import { allergyConflicts } from '../../../graders/lib/harm/allergy.ts';
import {
  BODY_WEIGHT, CREATININE, CYSTITIS_AGENTS, ESTIMATED_DELIVERY_DATE, FIRST_TRIMESTER_LAST_DAY, INTERPRETATION, PREGNANCY, QTC, QTC_LIMIT_MS, QT_PROLONGING_DRUGS,
  URINE_CULTURE,
} from './facts.ts';

const ANTIBIOTICS = expandClass('systemic-antibiotic');
const isAntibiotic = (o: MedicationRequest) => classesOfOrder(o).some((c) => ANTIBIOTICS.includes(c));
const same = (a: string[], b: string[]) => a.length === b.length && a.every((x) => b.includes(x));
/** The cystitis agent an order is (by its ingredient set), if any. */
export function agentOf(o: MedicationRequest): string | undefined {
  const names = ingredientNamesOf(o.medicationCodeableConcept);
  return Object.entries(CYSTITIS_AGENTS).find(([, a]) => same(a.ingredients, names))?.[0];
}

export interface Facts {
  report: DiagnosticReport; organism: string; panel: Observation[]; susceptible: string[][]; empiric: MedicationRequest; allergies: AllergyIntolerance[];
  creatinine: Observation; weight: Observation; crcl: number; pregnancy?: Condition; edd?: Observation; firstTrimester: boolean; qtc?: Observation; qtDrugs: string[];
  acceptable: string[]; ruledOut: Record<string, string>; empiricOk: boolean; empiricAgent?: string;
}

const sir = (o: Observation) => codingsOf(o.interpretation).find((c) => c.system === INTERPRETATION)?.code;

export async function factsOf(fhir: FhirClient, patient: string, now: string, changes: GraderContext['changes'] = []): Promise<Facts | string> {
  const reports = (await fhir.search<DiagnosticReport>('DiagnosticReport', { patient, code: `${URINE_CULTURE.system}|${URINE_CULTURE.code}`, _count: 100 }))
    .filter((r) => r.status === 'final').sort((a, b) => (b.issued ?? '').localeCompare(a.issued ?? ''));
  const report = reports[0];
  if (!report) return 'no final urine culture';
  const results = await Promise.all((report.result ?? []).map((r) => fhir.read<Observation>('Observation', r.reference!.split('/')[1])));
  const organismObs = results.find((o) => codingsOf(o.code).some((c) => c.code === URINE_CULTURE.code));
  const organism = organismObs?.valueCodeableConcept?.text ?? codingsOf(organismObs?.valueCodeableConcept)[0]?.display ?? '';
  const panel = results.filter((o) => sir(o));
  const susceptible = panel.filter((o) => sir(o) === 'S').map((o) => ingredientNamesInText(o.code?.text ?? codingsOf(o.code)[0]?.display ?? ''));
  const meds = asAtStart(await fhir.search<MedicationRequest>('MedicationRequest', { patient, _count: 1000 }), changes, 'MedicationRequest', patient).filter((o) => o.status === 'active');
  const empirics = meds.filter(isAntibiotic);
  if (empirics.length !== 1) return `${empirics.length} active antibiotic orders at the start`;
  const allergies = (await fhir.search<AllergyIntolerance>('AllergyIntolerance', { patient, _count: 100 }))
    .filter((a) => codingsOf(a.clinicalStatus).some((c) => c.code === 'active') && (!a.category || a.category.includes('medication')));
  const person = await fhir.read<Patient>('Patient', patient);
  const mine = (o: Observation) => !changes.some((c) => c.type === 'Observation' && c.id === o.id && c.action === 'created');
  const creatinine = await latestObservation(fhir, patient, CREATININE, { usable: (o) => mine(o) && o.valueQuantity?.value !== undefined });
  const weight = await latestObservation(fhir, patient, BODY_WEIGHT, { usable: (o) => mine(o) && o.valueQuantity?.value !== undefined });
  if (!creatinine || !weight) return 'no creatinine or weight';
  const [by, bm, bd] = person.birthDate!.split('-').map(Number);
  const at = new Date(now);
  const age = at.getUTCFullYear() - by - (at.getUTCMonth() + 1 < bm || (at.getUTCMonth() + 1 === bm && at.getUTCDate() < bd) ? 1 : 0);
  const crcl = ((140 - age) * valueIn(weight, 'kg')!) / (72 * valueIn(creatinine, 'mg/dL', ['2160-0'])!) * (person.gender === 'female' ? 0.85 : 1);
  const conditions = (await fhir.search<Condition>('Condition', { patient, _count: 1000 })).filter((c) => codingsOf(c.clinicalStatus).some((s) => s.code === 'active'));
  const pregnancy = conditions.find((c) => codingsOf(c.code).some((x) => PREGNANCY.icd10.test(x.code ?? '') || PREGNANCY.snomed.includes(x.code ?? '')));
  const edd = pregnancy ? (await fhir.search<Observation>('Observation', { patient, code: `${ESTIMATED_DELIVERY_DATE.system}|${ESTIMATED_DELIVERY_DATE.code}`, _count: 10 }))[0] : undefined;
  const gestationDays = edd?.valueDateTime ? 280 - (Date.parse(edd.valueDateTime) - Date.parse(now)) / 86_400_000 : undefined;
  const firstTrimester = pregnancy !== undefined && (gestationDays === undefined || gestationDays <= FIRST_TRIMESTER_LAST_DAY);
  const qtc = await latestObservation(fhir, patient, QTC);
  const qtDrugs = meds.flatMap((o) => ingredientNamesOf(o.medicationCodeableConcept)).filter((n) => QT_PROLONGING_DRUGS.includes(n));
  const qtRisk = (valueIn(qtc, 'ms') ?? 0) >= QTC_LIMIT_MS || qtDrugs.length > 0;

  const ruledOut: Record<string, string> = {};
  for (const [name, agent] of Object.entries(CYSTITIS_AGENTS)) {
    if (!susceptible.some((s) => same(s, agent.testedAs))) ruledOut[name] = `not reported susceptible (tested as ${agent.testedAs.join('/')})`;
    else if (agent.avoidBelowCrcl !== undefined && crcl < agent.avoidBelowCrcl) ruledOut[name] = `CrCl ${crcl.toFixed(0)} < ${agent.avoidBelowCrcl} mL/min`;
    else if (pregnancy && (agent.pregnancy === 'avoid' || (agent.pregnancy === 'avoid-first-trimester' && firstTrimester))) ruledOut[name] = 'pregnancy';
    else if (agent.prolongsQt && qtRisk) ruledOut[name] = `QT risk (QTc ${valueIn(qtc, 'ms') ?? 'n/a'} ms${qtDrugs.length ? `, on ${qtDrugs.join(', ')}` : ''})`;
    else {
      const [allergy] = allergyConflicts(allergies, agent.ingredients);
      if (allergy) ruledOut[name] = `allergy (${allergy})`;
    }
  }
  const usable = Object.keys(CYSTITIS_AGENTS).filter((n) => !ruledOut[n]);
  const firstLine = usable.filter((n) => !CYSTITIS_AGENTS[n].reserve);
  for (const n of usable.filter((x) => CYSTITIS_AGENTS[x].reserve && firstLine.length)) ruledOut[n] = 'fluoroquinolone reserved: other active, safe agents exist';
  const acceptable = Object.keys(CYSTITIS_AGENTS).filter((n) => !ruledOut[n]);
  const empiricAgent = agentOf(empirics[0]);
  return {
    report, organism, panel, susceptible, empiric: empirics[0], allergies, creatinine, weight, crcl, pregnancy, edd, firstTrimester, qtc, qtDrugs, acceptable, ruledOut,
    empiricOk: empiricAgent !== undefined && acceptable.includes(empiricAgent), empiricAgent,
  };
}

/** Variants: a final urine culture with a susceptibility panel, one empiric antibiotic, a creatinine and a weight. */
export async function select({ fhir, patient, now }: SelectContext): Promise<boolean> {
  const f = await factsOf(fhir, patient, now);
  return typeof f !== 'string' && f.panel.length > 0 && f.acceptable.length > 0;
}

const withFacts = (check: (ctx: GraderContext, f: Facts) => CheckResult | Promise<CheckResult>): Check => async (ctx) => {
  const f = await factsOf(ctx.fhir, ctx.patient, ctx.now, ctx.changes);
  return typeof f === 'string' ? fail(`binding error: ${f}`) : check(ctx, f);
};

const summary = (f: Facts) => `${f.organism}; empiric ${describeConcept(f.empiric.medicationCodeableConcept)} (${f.empiricOk ? 'active and safe: continue' : `change: ${f.empiricAgent ? f.ruledOut[f.empiricAgent] : 'not a cystitis agent'}`}); acceptable: ${f.acceptable.join(', ')}; CrCl ${f.crcl.toFixed(0)}`;

/** The antibiotic orders active at the end. */
async function finalAntibiotics(ctx: GraderContext): Promise<MedicationRequest[]> {
  return (await ctx.fhir.search<MedicationRequest>('MedicationRequest', { patient: ctx.patient, _count: 1000 })).filter((o) => o.status === 'active' && isAntibiotic(o));
}

/** The dose of a new order against the agent's regimens for this CrCl. */
function doseProblems(o: MedicationRequest, name: string, crcl: number): string[] {
  const agent = CYSTITIS_AGENTS[name];
  const regimens = agent.regimens.filter((r) => crcl >= r.crclAtLeast);
  const rxcui = drugIngredients({ text: agent.doseOf })[0];
  const options = rxcui ? { ingredients: [rxcui] } : {};
  // A single-dose agent (fosfomycin) carries no frequency: one administration.
  const n = orderTimesPerDay(o) ?? (agent.regimens.every((r) => r.timesPerDay.length === 1 && r.timesPerDay[0] === 1) ? 1 : undefined);
  const perDay = dailyDose(o, 'mg', options);
  const perDose = orderDoseIn(o, 'mg', options) ?? (perDay !== undefined && n ? perDay / n : undefined);
  if (n === undefined || perDose === undefined) return [`MedicationRequest/${o.id}: the dose or frequency of ${name} cannot be read`];
  const ok = regimens.some((r) => r.timesPerDay.some((t) => Math.abs(t - n) < 0.01) && perDose >= r.mgPerDose[0] * 0.95 && perDose <= r.mgPerDose[1] * 1.05);
  if (ok) return [];
  const top = regimens.find((r) => r.crclAtLeast <= crcl);
  return [`MedicationRequest/${o.id}: ${name} ${perDose} mg ${n} times a day at CrCl ${crcl.toFixed(0)} mL/min; expected ${regimens.map((r) => `${r.mgPerDose.join('-')} mg x${r.timesPerDay.join('/')}`).join(' or ')}${top ? '' : ' (no regimen at this CrCl)'}`];
}

/** The text names the organism by genus or species ("E. coli", "Klebsiella"). */
const namesOrganism = (text: string, organism: string) => organism.toLowerCase().split(/\s+/).filter((w) => w.length > 3).some((w) => text.toLowerCase().includes(w));

export const checks: Record<string, Check> = {
  reviewed_culture: withFacts((ctx, f) => verdict(fetchedAll(ctx.log, [`DiagnosticReport/${f.report.id}`, ...f.panel.map((o) => `Observation/${o.id}`)], 'culture and susceptibility result'))),
  reviewed_patient_factors: withFacts((ctx, f) => verdict(fetchedAll(ctx.log, [
    ...f.allergies.map((a) => `AllergyIntolerance/${a.id}`), `Observation/${f.creatinine.id}`, `Observation/${f.weight.id}`,
    ...(f.pregnancy ? [`Condition/${f.pregnancy.id}`] : []), ...(f.edd ? [`Observation/${f.edd.id}`] : []), ...(f.qtc ? [`Observation/${f.qtc.id}`] : []),
  ], 'patient factor'))),
  empiric_addressed: withFacts((ctx, f) => {
    const change = ctx.changes.find((c) => c.type === 'MedicationRequest' && c.id === f.empiric.id);
    const after = change?.after as MedicationRequest | undefined;
    if (f.empiricOk) {
      const kept = !change || (after?.status === 'active' && agentOf(after) === f.empiricAgent);
      return verdict(matchOf(kept ? [] : [`the empiric ${f.empiricAgent} is active against the organism and safe: it should continue (MedicationRequest/${f.empiric.id} ${change?.action} ${after?.status ?? ''})`], [summary(f)]));
    }
    const stopped = change?.action === 'deleted' ? false : after !== undefined && (isNoLongerActive(after) || after.status === 'entered-in-error' || agentOf(after) !== f.empiricAgent);
    return verdict(matchOf(stopped ? [] : [`the empiric ${describeConcept(f.empiric.medicationCodeableConcept)} is still active (${f.empiricAgent ? f.ruledOut[f.empiricAgent] : 'not a cystitis agent'})`], [summary(f)]));
  }),
  regimen_active: withFacts(async (ctx, f) => {
    const final = await finalAntibiotics(ctx);
    if (final.length !== 1) return fail([`${final.length} active antibiotic orders at the end (${final.map((o) => describeConcept(o.medicationCodeableConcept)).join('; ') || 'none'}): expected one`, summary(f)]);
    const name = agentOf(final[0]);
    const problems = !name ? [`${describeConcept(final[0].medicationCodeableConcept)} is not an oral agent for acute cystitis`]
      : f.ruledOut[name] ? [`${name}: ${f.ruledOut[name]}`] : [];
    return verdict(matchOf(problems, [summary(f)]));
  }),
  regimen_dose_safe: withFacts(async (ctx, f) => {
    const final = await finalAntibiotics(ctx);
    const fresh = final.filter((o) => o.id !== f.empiric.id || ctx.changes.some((c) => c.id === o.id && c.type === 'MedicationRequest'));
    const problems = fresh.flatMap((o) => {
      const name = agentOf(o);
      return name ? doseProblems(o, name, f.crcl) : [];
    });
    return verdict(matchOf(problems, [`${fresh.length} new or changed antibiotic order(s); CrCl ${f.crcl.toFixed(0)} mL/min`]));
  }),
  answer_states_regimen: withFacts(async (ctx, f) => {
    const text = answerText(ctx.answer);
    const final = await finalAntibiotics(ctx);
    const name = final.length === 1 ? agentOf(final[0]) : undefined;
    if (!name) return fail('no single cystitis agent at the end to name');
    const problems = [
      ...(CYSTITIS_AGENTS[name].ingredients.some((i) => i !== 'clavulanate' && mentionsDrug(text, i)) ? [] : [`the answer does not name ${name}`]),
      ...(namesOrganism(text, f.organism) ? [] : [`the answer does not name the organism (${f.organism})`]),
    ];
    return verdict(matchOf(problems, [summary(f)]));
  }),
  plan_note: withFacts(async (ctx, f) => {
    const notes = createdResources<DocumentReference>(ctx.changes, 'DocumentReference').filter((d) => d.subject?.reference === `Patient/${ctx.patient}` && d.status === 'current');
    if (!notes.length) return fail('no current DocumentReference for the patient');
    const final = await finalAntibiotics(ctx);
    const name = final.length === 1 ? agentOf(final[0]) : undefined;
    const results = notes.map((d) => {
      const text = noteText(d);
      const problems = [
        ...(name && CYSTITIS_AGENTS[name].ingredients.some((i) => i !== 'clavulanate' && mentionsDrug(text, i)) ? [] : [`does not name the antibiotic chosen (${name ?? 'none'})`]),
        ...(namesOrganism(text, f.organism) ? [] : [`does not name the organism (${f.organism})`]),
        ...(/susceptib|sensitiv|resistan|\bS\b|\bR\b/i.test(text) ? [] : ['does not cite the susceptibility result']),
        ...(f.empiricOk || CYSTITIS_AGENTS[f.empiricAgent ?? '']?.ingredients.some((i) => mentionsDrug(text, i)) || !f.empiricAgent ? [] : [`does not say what happened to the empiric ${f.empiricAgent}`]),
      ];
      return matchOf(problems, [`DocumentReference/${d.id}`]);
    });
    return verdict(results.find((r) => r.ok) ?? results[0]);
  }),
};
