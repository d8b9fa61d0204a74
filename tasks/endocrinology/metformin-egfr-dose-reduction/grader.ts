// Grader: the eGFR band confirmed by the latest two results (as the chart stood when the episode began) decides -
// eGFR >= 45 continue the dose, 30-44 at most 1000 mg/day, < 30 stop (FDA 2016 labeling, KDIGO 2022) - and the
// metformin orders at the end must carry that out; kidney function is followed up whatever the band.
import type { MedicationRequest, Observation, Resource, ServiceRequest } from '@medplum/fhirtypes';
import type { Check, SelectContext } from '../../../contracts/task.ts';
import type { ResourceChange } from '../../../contracts/gym-api.ts';
import type { FhirClient } from '../../../contracts/fhir-client.ts';
import {
  createdResources, dailyDose, drugIngredients, effectiveTime, fail, fetchedAll, findServiceRequest, isNoLongerActive, matchNumber, matchOf, observations,
  ORDER_GROUPS, patientOf, rxnormIngredients, verdict, type Match,
} from '../../../graders/lib/index.ts';
import { EGFR, EGFR_BANDS, METFORMIN, type Decision } from './facts.ts';

/** Metformin (alone or in a combination) by any RxNorm code, brand or generic name. */
export function isMetformin(order: MedicationRequest): boolean {
  const concept = order.medicationCodeableConcept;
  return [...rxnormIngredients(concept), ...drugIngredients(concept)].includes(METFORMIN.ingredient);
}

const isActiveOrder = (o: MedicationRequest) => o.status === 'active' && ['order', 'original-order', 'instance-order'].includes(o.intent);
/** mg of metformin a day: "1 tablet" of an SCD, "milligram", text sigs and frequencies through graders/lib. */
const mgPerDay = (o: MedicationRequest) => dailyDose(o, 'mg');

function bandOf(egfr: number): Decision {
  return egfr < EGFR_BANDS.stopBelow ? 'stop' : egfr < EGFR_BANDS.reduceBelow ? 'reduce' : 'continue';
}

function asAtStart<T extends Resource>(now: T[], changes: ResourceChange[], type: string, patient: string): T[] {
  const touched = changes.filter((c) => c.type === type);
  const ids = new Set(touched.map((c) => c.id));
  return [...now.filter((r) => !ids.has(r.id!)), ...touched.map((c) => c.before as T | null).filter((r): r is T => !!r && patientOf(r) === patient)];
}

export interface KidneyFacts { latest?: Observation; previous?: Observation; decision?: Decision; startOrders: MedicationRequest[]; startMg?: number }

export async function kidneyFacts(fhir: FhirClient, patient: string, changes: ResourceChange[] = []): Promise<KidneyFacts> {
  const created = new Set(changes.filter((c) => c.type === 'Observation' && c.action === 'created').map((c) => c.id));
  const results = (await observations(fhir, patient, EGFR)).filter((o) => o.valueQuantity?.value !== undefined && !created.has(o.id!))
    .sort((a, b) => Date.parse(effectiveTime(b)) - Date.parse(effectiveTime(a)));
  const [latest, previous] = results;
  // A decision needs a confirmed band: the latest two results agree (KDIGO acts on a repeated value).
  const bands = [latest, previous].map((o) => (o ? bandOf(o.valueQuantity!.value!) : undefined));
  const all = await fhir.search<MedicationRequest>('MedicationRequest', { patient, _count: 1000 });
  const startOrders = asAtStart(all, changes, 'MedicationRequest', patient).filter((o) => isActiveOrder(o) && isMetformin(o));
  const doses = startOrders.map(mgPerDay);
  return {
    latest, previous, decision: bands[0] && bands[0] === bands[1] ? bands[0] : undefined, startOrders,
    startMg: doses.length > 0 && doses.every((d) => d !== undefined) ? doses.reduce((a, b) => a! + b!, 0) : undefined,
  };
}

/** Variants: metformin at a readable dose above 1000 mg/day (any dose when eGFR < 30), in a confirmed eGFR band. */
export async function select({ fhir, patient }: SelectContext): Promise<boolean> {
  const f = await kidneyFacts(fhir, patient);
  if (!f.decision || f.startMg === undefined || f.startOrders.length === 0) return false;
  return f.decision === 'stop' || f.startMg > EGFR_BANDS.reducedMaxMgPerDay;
}

const egfrText = (f: KidneyFacts) => `eGFR ${f.latest?.valueQuantity?.value} (${f.latest ? effectiveTime(f.latest).slice(0, 10) : '?'}) after ${f.previous?.valueQuantity?.value}: ${f.decision}`;

async function activeMetformin(fhir: FhirClient, patient: string): Promise<MedicationRequest[]> {
  return (await fhir.search<MedicationRequest>('MedicationRequest', { patient, _count: 1000 })).filter((o) => isActiveOrder(o) && isMetformin(o));
}

/** Whether a total daily dose carries out the decision. */
function doseFits(decision: Decision, mg: number, startMg: number): boolean {
  if (decision === 'stop') return mg === 0;
  if (decision === 'reduce') return mg > 0 && mg <= EGFR_BANDS.reducedMaxMgPerDay;
  return Math.abs(mg - startMg) < 0.5;
}

const wantText = (decision: Decision, startMg: number) => ({
  stop: 'no active metformin (eGFR < 30: contraindicated)',
  reduce: `one active metformin order of more than 0 and at most ${EGFR_BANDS.reducedMaxMgPerDay} mg/day (eGFR 30-44: reduce, do not stop)`,
  continue: `metformin continued at ${startMg} mg/day (eGFR >= 45: no dose change)`,
}[decision]);

export const checks: Record<string, Check> = {
  reviewed_egfr: async ({ fhir, patient, log, changes }) => {
    const f = await kidneyFacts(fhir, patient, changes);
    if (!f.latest) return fail('the chart holds no eGFR');
    return verdict(fetchedAll(log, [`Observation/${f.latest.id}`], 'latest eGFR'));
  },
  stated_egfr: async ({ fhir, patient, answer, changes }) => {
    const f = await kidneyFacts(fhir, patient, changes);
    if (!f.latest) return fail('the chart holds no eGFR');
    // Either of the two results that confirm the band is a value one may act on.
    const tries = [f.latest, f.previous].filter((o): o is Observation => !!o)
      .map((o) => matchNumber(answer, { value: o.valueQuantity!.value!, tolerance: { absolute: 0.5 }, fields: ['egfr', 'gfr'], near: ['egfr', 'gfr'] }));
    return verdict(tries.find((m) => m.ok) ?? tries[0]);
  },
  dose_judgement: async ({ fhir, patient, answer, changes }) => {
    const f = await kidneyFacts(fhir, patient, changes);
    if (!f.decision || f.startMg === undefined) return fail(`no confirmed eGFR band or readable metformin dose (${egfrText(f)}; binding error)`);
    const fields = { fields: ['dailyDoseMg', 'dailyDose', 'totalDailyDose', 'newDailyDoseMg'], near: ['daily', 'per day', '/day', 'a day'] };
    // The dose the answer gives must carry out the decision; for a reduction, the dose of the order left (if it fits).
    const left = (await activeMetformin(fhir, patient)).map(mgPerDay).filter((d): d is number => d !== undefined);
    const total = left.reduce((a, b) => a + b, 0);
    const expected = f.decision === 'stop' ? 0 : f.decision === 'continue' ? f.startMg : doseFits('reduce', total, f.startMg) ? total : EGFR_BANDS.reducedMaxMgPerDay;
    const m: Match = matchNumber(answer, { value: expected, unit: 'mg', tolerance: { absolute: 0.5 }, ...fields });
    return verdict({ ...m, evidence: [...m.evidence, egfrText(f), `expected ${wantText(f.decision, f.startMg)}`] });
  },
  metformin_matches_egfr: async ({ fhir, patient, changes }) => {
    const f = await kidneyFacts(fhir, patient, changes);
    if (!f.decision || f.startMg === undefined) return fail(`no confirmed eGFR band or readable metformin dose (${egfrText(f)}; binding error)`);
    const final = await activeMetformin(fhir, patient);
    const doses = final.map(mgPerDay);
    const described = final.map((o, i) => `MedicationRequest/${o.id}: ${doses[i] ?? '?'} mg/day`);
    const problems: string[] = [];
    if (f.decision !== 'stop' && final.length !== 1) problems.push(`${final.length} active metformin orders at the end, expected ${wantText(f.decision, f.startMg)}`);
    else if (doses.some((d) => d === undefined)) problems.push('an active metformin order of unreadable dose');
    else if (!doseFits(f.decision, doses.reduce((a, b) => a! + b!, 0)!, f.startMg)) problems.push(`active metformin ${doses.reduce((a, b) => a! + b!, 0)} mg/day; expected ${wantText(f.decision, f.startMg)}`);
    // An ended order is stopped, cancelled or completed - held counts only when metformin is stopped altogether (it
    // is out of use either way); a held full-dose order next to its reduced replacement could be resumed. Deleting
    // loses the record.
    for (const c of changes) {
      const before = c.before as MedicationRequest | null;
      const after = c.after as MedicationRequest | null;
      if (c.type !== 'MedicationRequest' || !before || !isMetformin(before) || !isActiveOrder(before)) continue;
      if (c.action === 'deleted') problems.push(`deleted MedicationRequest/${c.id} instead of stopping it`);
      else if (after && !isActiveOrder(after) && !isNoLongerActive(after, { allowHold: f.decision === 'stop' })) problems.push(`MedicationRequest/${c.id} set to ${after.status}: not an ended order`);
    }
    return verdict(matchOf(problems, [egfrText(f), ...described]));
  },
  renal_monitoring_ordered: ({ patient, changes }) => verdict(findServiceRequest(createdResources<ServiceRequest>(changes, 'ServiceRequest'), {
    patient, group: ORDER_GROUPS.renalFunction, intent: ['order', 'original-order'], status: ['active', 'draft'],
  })),
};
