// Grader: the preventive must be guideline-supported at a starting dose and safe for this chart (asthma, pregnancy,
// age/sex, current beta-blockers and SSRIs, allergies - all read from the session); plus a neurology referral.
import type { AllergyIntolerance, Condition, MedicationRequest, Patient, ServiceRequest } from '@medplum/fhirtypes';
import type { Check, GraderContext } from '../../../harness/types.ts';
import {
  allOf, answerText, codingsOf, createdResources, describeConcept, doseOf, fail, fetchedAll, findReferral, inCodeSet, isMedication, matchOf,
  rxnormIngredients, SNOMED, timesPerDay, verdict, writesOnlyFor,
} from '../../../graders/lib/index.ts';

interface DrugClass { name: string; ingredients: string[]; words: string[] }
const drug = (name: string, ingredients: string[], words: string[] = [name]): DrugClass => ({ name, ingredients, words });

export const PREVENTIVES: (DrugClass & { perDay: [number, number] })[] = [
  { ...drug('topiramate', ['38404']), perDay: [25, 100] },
  { ...drug('propranolol', ['8787']), perDay: [40, 160] },
  { ...drug('metoprolol', ['6918']), perDay: [50, 200] },
  { ...drug('amitriptyline', ['704']), perDay: [10, 50] },
  { ...drug('nortriptyline', ['7531']), perDay: [10, 50] },
  { ...drug('venlafaxine', ['39786']), perDay: [37.5, 150] },
  { ...drug('candesartan', ['214354']), perDay: [8, 16] },
];
const BETA_BLOCKERS = drug('beta-blocker', ['8787', '6918', '10600', '7226', '1202', '20352', '19484'], ['propranolol', 'metoprolol', 'timolol', 'nadolol', 'atenolol', 'carvedilol', 'bisoprolol']);
const VALPROATE = drug('valproate', ['11118', '40254'], ['valpro', 'depakote', 'divalproex']);
const TOPIRAMATE = drug('topiramate', ['38404']);
const VENLAFAXINE = drug('venlafaxine', ['39786']);
const SSRIS = drug('SSRI', ['36437', '321988', '2556', '4493', '32937', '8123'], ['sertraline', 'escitalopram', 'citalopram', 'fluoxetine', 'paroxetine']);
const TRIPTANS = drug('triptan', ['37418', '88014', '135775', '35636', '18631', '141366', '140123'], ['triptan']);

function has(order: MedicationRequest, d: DrugClass): boolean {
  const concept = order.medicationCodeableConcept;
  const text = [concept?.text, ...codingsOf(concept).map((c) => c.display)].filter(Boolean).join(' ').toLowerCase();
  return rxnormIngredients(concept).some((i) => d.ingredients.includes(i)) || d.words.some((w) => text.includes(w));
}

const isActive = (o: MedicationRequest) => ['active', 'draft', 'on-hold'].includes(o.status);
const newOrders = (ctx: GraderContext) => createdResources<MedicationRequest>(ctx.changes, 'MedicationRequest').filter(isActive);

async function activeProblems(ctx: GraderContext): Promise<Condition[]> {
  const all = await ctx.fhir.search<Condition>('Condition', { patient: ctx.patient, 'clinical-status': 'active', _count: 1000 });
  return all.filter((c) => c.clinicalStatus?.coding?.some((x) => x.code === 'active') && c.category?.some((x) => x.coding?.some((y) => y.code === 'problem-list-item')));
}

function dosePerDay(o: MedicationRequest): number | undefined {
  const d = o.dosageInstruction?.[0];
  const dose = doseOf(d);
  return dose && /^mg$/i.test(dose.unit.trim()) ? dose.value * (timesPerDay(d) ?? 1) : undefined;
}

export const checks: Record<string, Check> = {
  reviewed_acute_therapy: async ({ fhir, patient, log }) => {
    const orders = (await fhir.search<MedicationRequest>('MedicationRequest', { patient, code: 'http://www.nlm.nih.gov/research/umls/rxnorm|37418', _count: 100 }))
      .filter((o) => o.status === 'active' && isMedication(o.medicationCodeableConcept, { ingredients: ['37418'] }));
    if (orders.length === 0) return fail('no active sumatriptan order (binding error)');
    return verdict(fetchedAll(log, orders.map((o) => `MedicationRequest/${o.id}`), 'sumatriptan order'));
  },
  reviewed_problem_list: async (ctx) => {
    const problems = await activeProblems(ctx);
    return verdict(fetchedAll(ctx.log, problems.map((c) => `Condition/${c.id}`), 'active problem'));
  },
  preventive_ordered: (ctx) => {
    const orders = newOrders(ctx);
    if (orders.length === 0) return fail('no new active MedicationRequest was written');
    const seen: string[] = [];
    for (const o of orders) {
      const cls = PREVENTIVES.find((p) => has(o, p));
      const perDay = dosePerDay(o);
      const d = o.dosageInstruction?.[0];
      const oral = (d?.route?.coding ?? []).some((c) => c.code === '26643006' || /oral/i.test(c.display ?? '')) || /by mouth|oral|\bpo\b/i.test(d?.text ?? '');
      const scheduled = !d?.asNeededBoolean;
      seen.push(`MedicationRequest/${o.id}: ${describeConcept(o.medicationCodeableConcept)}, ${perDay ?? '?'} mg/day, ${oral ? 'oral' : 'not oral'}, ${scheduled ? 'scheduled' : 'PRN'}`);
      if (cls && perDay !== undefined && perDay >= cls.perDay[0] && perDay <= cls.perDay[1] && oral && scheduled && o.subject?.reference === `Patient/${ctx.patient}`) {
        return verdict(matchOf([], [`${cls.name} ${perDay} mg/day`, ...seen]));
      }
    }
    return verdict(matchOf(['no new order is a guideline preventive at a starting dose (oral, scheduled)'], seen));
  },
  preventive_safe_for_patient: async (ctx) => {
    const orders = newOrders(ctx);
    const problems = await activeProblems(ctx);
    const patient = await ctx.fhir.read<Patient>('Patient', ctx.patient);
    const age = patient.birthDate ? (Date.parse(ctx.now) - Date.parse(patient.birthDate)) / (365.25 * 86400_000) : 99;
    const asthma = problems.some((c) => inCodeSet(c.code, [{ system: SNOMED, codes: ['195967001'] }]));
    const pregnant = problems.some((c) => inCodeSet(c.code, [{ system: SNOMED, codes: ['77386006'] }]));
    const active = (await ctx.fhir.search<MedicationRequest>('MedicationRequest', { patient: ctx.patient, status: 'active', _count: 1000 }))
      .filter((o) => o.status === 'active' && !orders.some((n) => n.id === o.id));
    const onBeta = active.some((o) => has(o, BETA_BLOCKERS));
    const onSsri = active.some((o) => has(o, SSRIS));
    const allergies = (await ctx.fhir.search<AllergyIntolerance>('AllergyIntolerance', { patient: ctx.patient }))
      .filter((a) => a.clinicalStatus?.coding?.some((c) => c.code === 'active'))
      .map((a) => drug(describeConcept(a.code), rxnormIngredients(a.code), [a.code?.text, ...codingsOf(a.code).map((c) => c.display)].filter((w): w is string => !!w).map((w) => w.toLowerCase())));
    const mismatches: string[] = [];
    for (const o of orders) {
      const label = `MedicationRequest/${o.id} (${describeConcept(o.medicationCodeableConcept)})`;
      if (has(o, BETA_BLOCKERS) && asthma) mismatches.push(`${label}: beta-blocker with active asthma`);
      if (has(o, BETA_BLOCKERS) && onBeta) mismatches.push(`${label}: a second beta-blocker`);
      if ((has(o, VALPROATE) || has(o, TOPIRAMATE)) && pregnant) mismatches.push(`${label}: teratogen in pregnancy`);
      if (has(o, VALPROATE) && patient.gender === 'female' && age < 50) mismatches.push(`${label}: valproate in a woman of childbearing potential`);
      if (has(o, VENLAFAXINE) && onSsri) mismatches.push(`${label}: venlafaxine on top of an SSRI (serotonin toxicity)`);
      for (const a of allergies) if (has(o, a)) mismatches.push(`${label}: on the allergy list (${a.name})`);
    }
    return verdict(matchOf(mismatches, [`asthma ${asthma}, pregnant ${pregnant}, ${patient.gender} ${Math.floor(age)} y, beta-blocker ${onBeta}, SSRI ${onSsri}, ${orders.length} new orders`]));
  },
  neurology_referral: ({ patient, changes }) => verdict(findReferral(createdResources<ServiceRequest>(changes, 'ServiceRequest'), {
    patient, specialty: [{ system: SNOMED, codes: ['394591006'] }], specialtyWords: ['neurology', 'headache'], status: ['active', 'draft'],
  })),
  answer_names_preventive: (ctx) => {
    const ordered = newOrders(ctx).map((o) => PREVENTIVES.find((p) => has(o, p))).filter((p): p is (typeof PREVENTIVES)[number] => !!p);
    if (ordered.length === 0) return fail('no preventive was ordered, so the answer cannot name it');
    const text = answerText(ctx.answer).toLowerCase();
    const named = ordered.find((p) => p.words.some((w) => text.includes(w)));
    return named ? verdict(matchOf([], [`answer names ${named.name}`])) : fail(`the answer does not name the ordered preventive (${ordered.map((p) => p.name).join(', ')})`);
  },
  writes_scoped: (ctx) => {
    const triptans = newOrders(ctx).filter((o) => has(o, TRIPTANS)).map((o) => `new triptan order MedicationRequest/${o.id}`);
    const changed = ctx.changes.filter((c) => c.action !== 'created').map((c) => `${c.action} ${c.type}/${c.id}: existing records were not to be changed`);
    return verdict(allOf(writesOnlyFor(ctx.changes, ctx.patient), matchOf([...triptans, ...changed])));
  },
};
