// Grader: the eGFR and the full-dose metformin orders come from the variant's chart (latest eGFR, the orders active
// when the episode began); the end state must hold one active metformin order at 1-1000 mg/day.
import type { MedicationRequest, ServiceRequest } from '@medplum/fhirtypes';
import type { Check, GraderContext, SelectContext } from '../../../harness/types.ts';
import {
  allOf, changeOf, convert, createdResources, doseOf, fail, fetchedAll, findServiceRequest, isMedication, latestObservation,
  LOINC, matchDiscontinuation, matchNumber, matchOf, noDuplicateActiveOrders, pass, quantityOf, readBeforeWrite, timesPerDay, verdict, writesOnlyFor,
  type Match,
} from '../../../graders/lib/index.ts';

const FLOWSHEET = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';
export const EGFR = [{ system: LOINC, codes: ['33914-3', '62238-1', '48642-3', '48643-1', '98979-8'] }, { system: FLOWSHEET, codes: ['EGFR'] }];
const RENAL_LABS = [
  { system: LOINC, codes: ['33914-3', '62238-1', '48642-3', '98979-8', '2160-0', '38483-4', '51990-0', '24323-8', '24320-4'] },
  { system: FLOWSHEET, codes: ['EGFR', 'CREAT'] },
];

/** Metformin by RxNorm ingredient, or by name in a free-text order. */
export function isMetformin(order: MedicationRequest): boolean {
  return isMedication(order.medicationCodeableConcept, { ingredients: ['6809'] }) || /metformin/i.test(order.medicationCodeableConcept?.text ?? '');
}

/** Total daily dose in mg (dose per administration x administrations per day), when both are known. */
export function dailyDoseMg(order: MedicationRequest): number | undefined {
  const dosage = order.dosageInstruction?.[0];
  const dose = doseOf(dosage);
  const perDay = timesPerDay(dosage);
  if (!dose || perDay === undefined) return undefined;
  const mg = convert(dose.value, dose.unit, 'mg');
  return mg === undefined ? undefined : mg * perDay;
}

/** The most metformin a day for an eGFR (KDIGO 2022 / FDA label): none below 30, 1000 mg at 30-44, else 2000+. */
export function maxDailyMg(egfr: number): number {
  return egfr < 30 ? 0 : egfr < 45 ? 1000 : Infinity;
}

async function latestEgfr(fhir: SelectContext['fhir'], patient: string): Promise<number | undefined> {
  return quantityOf(await latestObservation(fhir, patient, EGFR))?.value;
}

/** Variants: an active metformin order above the most the latest eGFR allows (eGFR < 45). */
export async function select({ fhir, patient }: SelectContext): Promise<boolean> {
  const egfr = await latestEgfr(fhir, patient);
  if (egfr === undefined || egfr >= 45) return false;
  const orders = await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  return orders.some((o) => isMetformin(o) && (dailyDoseMg(o) ?? 0) > maxDailyMg(egfr));
}

/** The metformin orders above the allowed dose, active when the episode began (their state before any change). */
async function startingFullDose({ fhir, patient, changes }: GraderContext): Promise<MedicationRequest[]> {
  const max = maxDailyMg((await latestEgfr(fhir, patient)) ?? 0);
  const now = await fhir.search<MedicationRequest>('MedicationRequest', { patient, _count: 1000 });
  const out: MedicationRequest[] = [];
  for (const o of now) {
    const change = changeOf(changes, 'MedicationRequest', o.id!);
    if (change?.action === 'created') continue;
    const before = (change?.before ?? o) as MedicationRequest;
    if (before.status === 'active' && isMetformin(before) && (dailyDoseMg(before) ?? 0) > max) out.push(before);
  }
  return out;
}

async function activeMetformin({ fhir, patient }: GraderContext): Promise<MedicationRequest[]> {
  const orders = await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active', _count: 1000 });
  return orders.filter((o) => o.status === 'active' && isMetformin(o));
}

export const checks: Record<string, Check> = {
  reviewed_egfr: async ({ fhir, patient, log }) => {
    const latest = await latestObservation(fhir, patient, EGFR);
    if (!latest) return fail('the chart holds no eGFR');
    return verdict(fetchedAll(log, [`Observation/${latest.id}`], 'latest eGFR'));
  },
  stated_egfr: async ({ fhir, patient, answer }) => {
    const egfr = quantityOf(await latestObservation(fhir, patient, EGFR));
    if (!egfr) return fail('the chart holds no eGFR');
    return verdict(matchNumber(answer, { value: egfr.value, tolerance: { absolute: 0.5 }, fields: ['egfr', 'gfr'], near: ['egfr', 'gfr'] }));
  },
  stated_daily_dose: async (ctx) => {
    const egfr = await latestEgfr(ctx.fhir, ctx.patient);
    if (egfr === undefined) return fail('the chart holds no eGFR');
    const fields = { fields: ['dailyDoseMg', 'dailyDose', 'totalDailyDose'], near: ['daily', 'per day', '/day'] };
    if (maxDailyMg(egfr) === 0) return verdict(matchNumber(ctx.answer, { value: 0, unit: 'mg', tolerance: { absolute: 0 }, ...fields }));
    const active = await activeMetformin(ctx);
    const doses = active.map(dailyDoseMg).filter((d): d is number => d !== undefined && d > 0 && d <= 1000);
    if (doses.length === 0) return fail(`no active metformin order at 1-1000 mg/day to compare the answer with (${active.length} active metformin orders)`);
    const results = doses.map((d) => matchNumber(ctx.answer, { value: d, unit: 'mg', tolerance: { absolute: 0.5 }, ...fields }));
    return verdict(results.find((r) => r.ok) ?? results[0]);
  },
  full_dose_order_ended: async (ctx) => {
    const starting = await startingFullDose(ctx);
    if (starting.length === 0) return fail('no metformin order above the eGFR-allowed dose was active at the start (binding error)');
    const stopOnly = maxDailyMg((await latestEgfr(ctx.fhir, ctx.patient)) ?? 0) === 0;
    const matches: Match[] = starting.map((before) => {
      const target = `MedicationRequest/${before.id}`;
      const change = changeOf(ctx.changes, 'MedicationRequest', before.id!);
      const after = change?.after as MedicationRequest | null | undefined;
      if (after && after.status === 'active' && !stopOnly) {
        const dose = dailyDoseMg(after);
        return dose !== undefined && dose > 0 && dose <= 1000 ? matchOf([], [`${target} changed in place to ${dose} mg/day`]) : matchOf([`${target} is still active at ${dose ?? 'an unreadable'} mg/day`]);
      }
      return matchDiscontinuation(change, target, { reasonRequired: true, reasonWords: ['egfr', 'gfr', 'renal', 'kidney', 'ckd', 'creatinine', 'dose'] });
    });
    return verdict(allOf(...matches));
  },
  metformin_matches_egfr: async (ctx) => {
    const egfr = await latestEgfr(ctx.fhir, ctx.patient);
    if (egfr === undefined) return fail('the chart holds no eGFR');
    const active = await activeMetformin(ctx);
    const described = active.map((o) => `MedicationRequest/${o.id}: ${dailyDoseMg(o) ?? '?'} mg/day`);
    if (maxDailyMg(egfr) === 0) {
      return active.length === 0 ? pass(`eGFR ${egfr} < 30: no active metformin`) : fail([`eGFR ${egfr} < 30: metformin is contraindicated but still active`, ...described]);
    }
    if (active.length === 0) return fail(`eGFR ${egfr} (30-44): no active metformin at the end; it should continue at a reduced dose`);
    const over = active.filter((o) => !((dailyDoseMg(o) ?? Infinity) <= 1000 && (dailyDoseMg(o) ?? 0) > 0));
    return over.length === 0 ? pass(`eGFR ${egfr}`, ...described) : fail([`eGFR ${egfr}: active metformin above 1000 mg/day or with no readable dose: ${over.map((o) => `MedicationRequest/${o.id}`).join(', ')}`, ...described]);
  },
  renal_monitoring_ordered: ({ patient, changes }) => verdict(findServiceRequest(createdResources<ServiceRequest>(changes, 'ServiceRequest'), {
    patient, codes: RENAL_LABS, intent: ['order', 'original-order'], status: ['active', 'draft'],
  })),
  no_duplicate_metformin: async (ctx) => {
    const active = await activeMetformin(ctx);
    if (active.length > 1) return fail(`${active.length} active metformin orders: ${active.map((o) => `MedicationRequest/${o.id}`).join(', ')}`);
    return verdict(noDuplicateActiveOrders(active));
  },
  writes_scoped_and_informed: ({ patient, changes, log }) => verdict(allOf(writesOnlyFor(changes, patient), readBeforeWrite(log, changes))),
};
