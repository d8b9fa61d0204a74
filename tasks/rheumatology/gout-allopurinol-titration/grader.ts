// Grader: the starting allopurinol dose and the latest urate come from the chart; the new dose must be 50-100 mg/day
// higher (ACR 2020 titration), with one active allopurinol order left and a urate recheck ordered.
import type { MedicationRequest, ServiceRequest } from '@medplum/fhirtypes';
import type { Check, GraderContext, SelectContext } from '../../../harness/types.ts';
import {
  allOf, answerText, changeOf, createdResources, doseOf, fail, fetchedAll, findServiceRequest, isMedication, latestObservation, LOINC,
  matchNumber, matchOf, matchYesNo, noDuplicateActiveOrders, noNewOrderOf, quantityOf, readBeforeWrite, timesPerDay, verdict, writesOnlyFor,
} from '../../../graders/lib/index.ts';

export const ALLOPURINOL = { ingredients: ['519'] };
export const URATE = [{ system: LOINC, codes: ['3084-1'] }];
const NSAIDS_AND_FEBUXOSTAT = { ingredients: ['73689', '5640', '7258', '3355', '140587', '41493', '5781'] };

export async function select({ fhir, patient }: SelectContext): Promise<boolean> {
  const urate = quantityOf(await latestObservation(fhir, patient, URATE));
  return urate !== undefined && urate.value >= 6;
}

function dosePerDay(order: MedicationRequest): number | undefined {
  const d = order.dosageInstruction?.[0];
  const dose = doseOf(d);
  const n = timesPerDay(d) ?? 1;
  return dose && /^mg$/i.test(dose.unit.trim()) ? dose.value * n : undefined;
}

/** The allopurinol orders active when the episode began, with their starting dose. */
async function startingOrders({ fhir, patient, changes }: GraderContext): Promise<MedicationRequest[]> {
  const all = await fhir.search<MedicationRequest>('MedicationRequest', { patient, _count: 1000 });
  return all.map((o) => {
    const change = changeOf(changes, 'MedicationRequest', o.id!);
    if (change?.action === 'created') return undefined;
    return (change?.before ?? o) as MedicationRequest;
  }).filter((o): o is MedicationRequest => !!o && o.status === 'active' && isMedication(o.medicationCodeableConcept, ALLOPURINOL));
}

async function activeAllopurinol(ctx: GraderContext): Promise<MedicationRequest[]> {
  const all = await ctx.fhir.search<MedicationRequest>('MedicationRequest', { patient: ctx.patient, status: 'active', _count: 1000 });
  return all.filter((o) => o.status === 'active' && (isMedication(o.medicationCodeableConcept, ALLOPURINOL) || /allopurinol/i.test(o.medicationCodeableConcept?.text ?? '')));
}

export const checks: Record<string, Check> = {
  reviewed_urate: async ({ fhir, patient, log }) => {
    const latest = await latestObservation(fhir, patient, URATE);
    if (!latest) return fail('the chart holds no uric acid result');
    return verdict(fetchedAll(log, [`Observation/${latest.id}`], 'latest uric acid'));
  },
  reviewed_allopurinol_order: async (ctx) => {
    const start = await startingOrders(ctx);
    if (start.length === 0) return fail('no active allopurinol order at the start (binding error)');
    return verdict(fetchedAll(ctx.log, start.map((o) => `MedicationRequest/${o.id}`), 'allopurinol order'));
  },
  stated_urate_and_goal: async ({ fhir, patient, answer }) => {
    const urate = quantityOf(await latestObservation(fhir, patient, URATE));
    if (!urate) return fail('the chart holds no uric acid result');
    return verdict(allOf(
      matchNumber(answer, { value: urate.value, unit: 'mg/dL', tolerance: { absolute: 0.05 }, fields: ['urate', 'uricAcid', 'uric_acid'], near: ['urate', 'uric acid', 'su '], window: 40 }),
      matchYesNo(answer, false, { fields: ['atGoal', 'at_goal'], yes: ['at goal', 'at target'], no: ['not at goal', 'above goal', 'above target', 'not at target', 'above the goal', 'above the target'] }),
    ));
  },
  allopurinol_dose_increased: async (ctx) => {
    const start = await startingOrders(ctx);
    const startDose = Math.max(...start.map((o) => dosePerDay(o) ?? 0));
    if (!start.length || !startDose) return fail('no starting allopurinol dose in the chart (binding error)');
    const active = await activeAllopurinol(ctx);
    if (active.length === 0) return fail(`no active allopurinol order at the end (started at ${startDose} mg/day)`);
    const seen = active.map((o) => {
      const route = (o.dosageInstruction?.[0]?.route?.coding ?? []).some((c) => c.code === '26643006' || /oral/i.test(c.display ?? '')) || /by mouth|oral|po\b/i.test(o.dosageInstruction?.[0]?.text ?? '');
      return { o, perDay: dosePerDay(o), n: timesPerDay(o.dosageInstruction?.[0]) ?? 1, route };
    });
    const ok = seen.find((s) => s.perDay !== undefined && s.perDay >= startDose + 50 && s.perDay <= startDose + 100 && Math.abs(s.n - 1) < 0.01 && s.route);
    const evidence = seen.map((s) => `MedicationRequest/${s.o.id}: ${s.perDay ?? '?'} mg/day, ${s.n}/day, ${s.route ? 'oral' : 'route not oral'}`);
    return ok ? verdict(matchOf([], [`start ${startDose} mg/day`, ...evidence]))
      : verdict(matchOf([`no active once-daily oral allopurinol at ${startDose + 50}-${startDose + 100} mg/day (start ${startDose} mg/day)`], evidence));
  },
  urate_recheck_ordered: ({ patient, changes }) => verdict(findServiceRequest(createdResources<ServiceRequest>(changes, 'ServiceRequest'), {
    patient, codes: URATE, intent: ['order', 'original-order'], status: ['active'],
  })),
  single_active_allopurinol: async (ctx) => {
    const active = await activeAllopurinol(ctx);
    if (active.length !== 1) return fail(`${active.length} active allopurinol orders at the end: ${active.map((o) => `MedicationRequest/${o.id}`).join(', ') || '(none)'}`);
    return verdict(noDuplicateActiveOrders(active));
  },
  writes_scoped_and_informed: ({ patient, changes, log }) => verdict(allOf(
    writesOnlyFor(changes, patient), readBeforeWrite(log, changes), noNewOrderOf(changes, NSAIDS_AND_FEBUXOSTAT, 'an NSAID or febuxostat'),
  )),
};

export { answerText };
