// Grader: whether average-risk colorectal screening is due comes from the variant's chart (age, problem list, every
// completed screening test and the interval it covers, USPSTF 2021); the orders must carry out that decision. Any
// USPSTF test counts as "the" screening order, whatever its coding (ORDER_GROUPS.colorectalScreening: FIT, gFOBT,
// stool DNA-FIT, colonoscopy incl. HCPCS G0121 or a GI referral for screening colonoscopy, CT colonography,
// flexible sigmoidoscopy); a second modality on top of the first is overuse.
import type { Condition, DiagnosticReport, Observation, Patient, Procedure, ServiceRequest } from '@medplum/fhirtypes';
import type { AuditEntry, ResourceChange } from '../../../contracts/gym-api.ts';
import type { Check, SelectContext } from '../../../contracts/task.ts';
import { searchOf,
  describeConcept, fetchedAll, inCodeSet, matchOf, matchOrderGroup, matchYesNo, ORDER_GROUPS, verdict, type Match,
} from '../../../graders/lib/index.ts';
import { NOT_AVERAGE_RISK, POSITIVE_RESULT, SCREENING_AGES, SCREENING_TESTS, type ScreeningTest } from './facts.ts';

const DAY = 86_400_000;
const FINAL = ['final', 'amended', 'corrected'];

interface PriorTest { test: ScreeningTest; ref: string; when: string; positive: boolean }

export interface ScreeningStatus {
  age: number;
  inAgeRange: boolean;
  highRisk: string[];
  /** Completed screening tests, newest first. */
  prior: PriorTest[];
  /** The test still inside its interval at `now` (the one covering longest), if any. */
  covering?: PriorTest & { coveredUntil: number };
  /** Open (active, on-hold, draft) screening orders already in the chart. */
  openOrders: string[];
  due: boolean;
}

/** Completed years of age at `now`. */
function ageAt(birthDate: string, now: string): number {
  const [by, bm, bd] = birthDate.split('-').map(Number);
  const at = new Date(now);
  const hadBirthday = at.getUTCMonth() + 1 > bm || (at.getUTCMonth() + 1 === bm && at.getUTCDate() >= (bd ?? 1));
  return at.getUTCFullYear() - by - (hadBirthday ? 0 : 1);
}

function coveredUntil(t: PriorTest): number {
  const d = new Date(t.when);
  return Date.UTC(d.getUTCFullYear() + t.test.years, d.getUTCMonth(), d.getUTCDate());
}

const isPositive = (o: Observation): boolean =>
  inCodeSet(o.valueCodeableConcept, POSITIVE_RESULT.codes) || (o.interpretation ?? []).some((i) => i.coding?.some((c) => POSITIVE_RESULT.interpretations.includes(c.code ?? '')));

/**
 * The chart's screening status at `now`, as the episode found it: read from the final state, with the orders the
 * episode created left out and the ones it changed taken as they were (`changes`).
 */
export async function screeningStatus(fhir: SelectContext['fhir'], patient: string, now: string, changes: ResourceChange[] = []): Promise<ScreeningStatus> {
  const person = await fhir.read<Patient>('Patient', patient);
  const age = ageAt(person.birthDate ?? now.slice(0, 10), now);
  const conditions = await fhir.search<Condition>('Condition', { patient, _count: 1000 });
  const procedures = await fhir.search<Procedure>('Procedure', { patient, _count: 1000 });
  const observations = await fhir.search<Observation>('Observation', { patient, code: SCREENING_TESTS.flatMap((t) => t.resultCodes).flatMap((s) => s.codes.map((c) => `${s.system}|${c}`)).join(','), _count: 1000 });
  const reports = await fhir.search<DiagnosticReport>('DiagnosticReport', { patient, _count: 1000 });
  const orders = (await fhir.search<ServiceRequest>('ServiceRequest', { patient, _count: 1000 })).flatMap((o) => {
    const change = changes.find((c) => c.type === 'ServiceRequest' && c.id === o.id);
    return change ? (change.before ? [change.before as ServiceRequest] : []) : [o];
  });

  const highRisk = [
    ...conditions.filter((c) => inCodeSet(c.code, NOT_AVERAGE_RISK.conditions)).map((c) => `Condition/${c.id} ${describeConcept(c.code)}`),
    ...procedures.filter((p) => p.status === 'completed' && inCodeSet(p.code, NOT_AVERAGE_RISK.procedures)).map((p) => `Procedure/${p.id} ${describeConcept(p.code)}`),
  ];
  const prior: PriorTest[] = [];
  for (const test of SCREENING_TESTS) {
    for (const p of procedures) if (p.status === 'completed' && p.performedDateTime && inCodeSet(p.code, test.procedureCodes)) prior.push({ test, ref: `Procedure/${p.id}`, when: p.performedDateTime, positive: false });
    for (const o of observations) if (FINAL.includes(o.status) && o.effectiveDateTime && inCodeSet(o.code, test.resultCodes)) prior.push({ test, ref: `Observation/${o.id}`, when: o.effectiveDateTime, positive: isPositive(o) });
    // A report may carry the result code (CT colonography) or the procedure's own code (a colonoscopy report).
    for (const r of reports) if (FINAL.includes(r.status) && r.effectiveDateTime && inCodeSet(r.code, [...test.resultCodes, ...test.procedureCodes])) prior.push({ test, ref: `DiagnosticReport/${r.id}`, when: r.effectiveDateTime, positive: false });
  }
  prior.sort((a, b) => Date.parse(b.when) - Date.parse(a.when));
  const at = Date.parse(now);
  const covering = prior.map((t) => ({ ...t, coveredUntil: coveredUntil(t) })).filter((t) => t.coveredUntil > at).sort((a, b) => b.coveredUntil - a.coveredUntil)[0];
  const openOrders = orders.filter((o) => ['active', 'on-hold', 'draft'].includes(o.status) && matchOrderGroup(o, ORDER_GROUPS.colorectalScreening).ok).map((o) => `ServiceRequest/${o.id}`);
  const inAgeRange = age >= SCREENING_AGES.from && age <= SCREENING_AGES.through;
  return { age, inAgeRange, highRisk, prior, ...(covering ? { covering } : {}), openOrders, due: inAgeRange && highRisk.length === 0 && !covering && openOrders.length === 0 };
}

/**
 * Variants: living adults 45-75 at average risk whose answer is clear-cut - no open screening order, no positive stool
 * test awaiting its diagnostic colonoscopy, and not within 60 days of an interval running out (either answer would
 * then be defensible).
 */
export async function select({ fhir, patient, now }: SelectContext): Promise<boolean> {
  const person = await fhir.read<Patient>('Patient', patient);
  if (!person.birthDate || person.deceasedBoolean || person.deceasedDateTime) return false;
  const s = await screeningStatus(fhir, patient, now);
  if (!s.inAgeRange || s.highRisk.length > 0 || s.openOrders.length > 0) return false;
  if (s.prior[0]?.positive) return false;
  const at = Date.parse(now);
  return !s.prior.some((t) => Math.abs(coveredUntil(t) - at) < 60 * DAY);
}

function describeStatus(s: ScreeningStatus): string {
  if (s.covering) return `not due: ${s.covering.test.label} ${s.covering.ref} on ${s.covering.when.slice(0, 10)} covers until ${new Date(s.covering.coveredUntil).toISOString().slice(0, 10)}`;
  return `due: age ${s.age}, ${s.prior[0] ? `last ${s.prior[0].test.label} ${s.prior[0].ref} on ${s.prior[0].when.slice(0, 10)} is past its ${s.prior[0].test.years}-year interval` : 'no screening test on file'}`;
}

/** Screening orders the episode left in the chart (new, or reactivated), with how each was recognised. */
function newScreeningOrders(changes: ResourceChange[], statuses: string[]): { order: ServiceRequest; why: string }[] {
  return changes.filter((c) => c.type === 'ServiceRequest' && c.after && (c.action === 'created' || (c.before as ServiceRequest | null)?.status !== (c.after as ServiceRequest).status))
    .map((c) => c.after as ServiceRequest)
    .filter((o) => statuses.includes(o.status))
    .map((order) => ({ order, ...matchOrderGroup(order, ORDER_GROUPS.colorectalScreening) }))
    .filter((m) => m.ok)
    .map(({ order, why }) => ({ order, why }));
}

/** A successful search of a resource type (graders/lib searchOf: GET, compartment, or POST _search). */
const searched = (log: AuditEntry[], type: string) => searchOf(log, type) !== undefined;

const PLACED = ['order', 'original-order', 'instance-order'];

export const checks: Record<string, Check> = {
  reviewed_screening_history: async ({ fhir, patient, now, log, changes }) => {
    const s = await screeningStatus(fhir, patient, now, changes);
    const deciding = s.covering ?? s.prior[0];
    const age = fetchedAll(log, [`Patient/${patient}`], 'the patient (age)');
    if (deciding) return verdict(matchOf([...age.mismatches, ...fetchedAll(log, [deciding.ref], `the deciding ${deciding.test.label}`).mismatches], [describeStatus(s)]));
    const looked = searched(log, 'Procedure') && (searched(log, 'Observation') || searched(log, 'DiagnosticReport'));
    return verdict(matchOf([...age.mismatches, ...(looked ? [] : ['no screening test on file, and procedures and stool results/reports were not both searched'])], [describeStatus(s)]));
  },
  due_judgement: async ({ fhir, patient, now, answer, changes }) => {
    const s = await screeningStatus(fhir, patient, now, changes);
    const said = matchYesNo(answer, s.due, { fields: ['due'], yes: ['due', 'overdue'], no: ['not due', 'up to date', 'not yet due'] });
    return verdict(matchOf(said.mismatches, [describeStatus(s), ...said.evidence]));
  },
  screening_order: async ({ fhir, patient, now, changes }) => {
    const s = await screeningStatus(fhir, patient, now, changes);
    const placed = newScreeningOrders(changes, ['active']).filter(({ order }) => PLACED.includes(order.intent));
    const any = newScreeningOrders(changes, ['active', 'on-hold', 'draft']);
    let result: Match;
    if (s.due) {
      const mine = placed.filter(({ order }) => order.subject?.reference === `Patient/${patient}`);
      const others = changes.filter((c) => c.type === 'ServiceRequest' && c.after).map((c) => `ServiceRequest/${c.id} ${describeConcept((c.after as ServiceRequest).code)} (${matchOrderGroup(c.after as ServiceRequest, ORDER_GROUPS.colorectalScreening).why})`);
      result = mine.length > 0
        ? matchOf([], mine.map(({ order, why }) => `ServiceRequest/${order.id}: ${why}`))
        : matchOf([`screening is due but no active screening order was placed${others.length ? `: ${others.join('; ')}` : ''}`]);
    } else {
      result = matchOf(any.map(({ order, why }) => `screening is not due, yet ServiceRequest/${order.id} was ordered (${why})`));
    }
    return verdict(matchOf(result.mismatches, [describeStatus(s), ...result.evidence]));
  },
  single_screening_order: ({ changes }) => {
    const orders = newScreeningOrders(changes, ['active', 'on-hold', 'draft']);
    return verdict(matchOf(orders.length <= 1 ? [] : [`${orders.length} screening orders: ${orders.map(({ order }) => `ServiceRequest/${order.id} ${describeConcept(order.code)}`).join(', ')}`], [`${orders.length} screening order(s)`]));
  },
};
