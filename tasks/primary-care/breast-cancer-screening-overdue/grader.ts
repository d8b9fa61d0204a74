// Grader: whether a screening mammogram is due comes from the variant's chart (age, breast cancer or bilateral
// mastectomy, the last mammogram by any of its records - procedure or report - and the USPSTF 2024 biennial interval);
// the orders and the note must carry out that decision. Any screening mammography order counts, however coded
// (ORDER_GROUPS.screeningMammography: SNOMED, LOINC 24606-6, CPT 77067, HCPCS G0202, category or not).
import type { CodeableConcept, Condition, DiagnosticReport, DocumentReference, Patient, Procedure, ServiceRequest } from '@medplum/fhirtypes';
import type { AuditEntry, ResourceChange } from '../../../contracts/gym-api.ts';
import type { Check, SelectContext } from '../../../contracts/task.ts';
import { searchOf,
  answerField, createdResources, datesIn, dateMatches, describeConcept, fetchedAll, fetchedAny, inCodeSet, matchDate, matchOf, matchOrderGroup,
  matchYesNo, noteText, ORDER_GROUPS, verdict, type Match,
} from '../../../graders/lib/index.ts';
import {
  AGREED_AGES, BILATERAL_MASTECTOMY, BREAST_CANCER, CLEARLY_DUE_AFTER_MONTHS, CLEARLY_NOT_DUE_WITHIN_MONTHS, INTERVAL_MONTHS, MAMMOGRAM,
} from './facts.ts';

const FINAL = ['final', 'amended', 'corrected'];

interface MammogramRecord { ref: string; when: string }

export interface BreastScreening {
  age: number;
  /** Every record of the most recent mammogram (a procedure and its report share the day), and its date. */
  last?: { date: string; records: string[] };
  monthsSince?: number;
  mastectomy: string[];
  cancer: string[];
  due: boolean;
  why: string;
}

function completedYears(birthDate: string, now: string): number {
  const b = new Date(birthDate);
  const n = new Date(now);
  return n.getUTCFullYear() - b.getUTCFullYear() - ((n.getUTCMonth() * 100 + n.getUTCDate()) < (b.getUTCMonth() * 100 + b.getUTCDate()) ? 1 : 0);
}

/** Months between two instants, fractional (30.4375-day months): enough to keep clear of the 12 / 24 / 25 marks. */
const monthsFrom = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / (30.4375 * 86_400_000);

function isBreastCancer(concept: CodeableConcept | undefined): boolean {
  if (inCodeSet(concept, BREAST_CANCER.codes)) return true;
  return (concept?.coding ?? []).some((c) => c.system === BREAST_CANCER.icd10Prefixes.system && BREAST_CANCER.icd10Prefixes.prefixes.some((p) => (c.code ?? '').startsWith(p)));
}

/** The chart's screening status at `now` (the episode adds orders and notes, which change none of this). */
export async function breastScreening(fhir: SelectContext['fhir'], patient: string, now: string): Promise<BreastScreening> {
  const person = await fhir.read<Patient>('Patient', patient);
  const age = completedYears(person.birthDate ?? now, now);
  const conditions = await fhir.search<Condition>('Condition', { patient, _count: 1000 });
  const procedures = await fhir.search<Procedure>('Procedure', { patient, _count: 1000 });
  const reports = await fhir.search<DiagnosticReport>('DiagnosticReport', { patient, _count: 1000 });
  const records: MammogramRecord[] = [
    ...procedures.filter((p) => p.status === 'completed' && inCodeSet(p.code, MAMMOGRAM)).map((p) => ({ ref: `Procedure/${p.id}`, when: p.performedDateTime ?? p.performedPeriod?.start ?? '' })),
    ...reports.filter((r) => FINAL.includes(r.status) && inCodeSet(r.code, MAMMOGRAM)).map((r) => ({ ref: `DiagnosticReport/${r.id}`, when: r.effectiveDateTime ?? r.effectivePeriod?.start ?? '' })),
  ].filter((r) => r.when).sort((a, b) => Date.parse(b.when) - Date.parse(a.when));
  const lastDay = records[0]?.when.slice(0, 10);
  const last = lastDay ? { date: lastDay, records: records.filter((r) => r.when.slice(0, 10) === lastDay).map((r) => r.ref) } : undefined;
  const monthsSince = records[0] ? monthsFrom(records[0].when, now) : undefined;
  const mastectomy = [
    ...procedures.filter((p) => p.status === 'completed' && inCodeSet(p.code, BILATERAL_MASTECTOMY.procedures)).map((p) => `Procedure/${p.id}`),
    ...conditions.filter((c) => inCodeSet(c.code, BILATERAL_MASTECTOMY.conditions)).map((c) => `Condition/${c.id}`),
  ];
  const cancer = conditions.filter((c) => isBreastCancer(c.code)).map((c) => `Condition/${c.id}`);
  let due = false;
  let why: string;
  if (mastectomy.length) why = `not due: bilateral mastectomy (${mastectomy.join(', ')})`;
  else if (cancer.length) why = `not average risk: breast cancer (${cancer.join(', ')})`;
  else if (age < AGREED_AGES.from || age > AGREED_AGES.through) why = `age ${age} outside ${AGREED_AGES.from}-${AGREED_AGES.through}`;
  else if (monthsSince !== undefined && monthsSince < INTERVAL_MONTHS) why = `not due: last mammogram ${last!.date} (${monthsSince.toFixed(1)} months ago)`;
  else {
    due = true;
    why = `due: age ${age}, ${last ? `last mammogram ${last.date} (${monthsSince!.toFixed(1)} months ago)` : 'no mammogram on file'}`;
  }
  return { age, ...(last ? { last } : {}), ...(monthsSince !== undefined ? { monthsSince } : {}), mastectomy, cancer, due, why };
}

/**
 * Variants: living women whose answer no guideline disputes - 50-74 with no mammogram for more than 25 months (due),
 * or with one in the last 12 months (not due), or after a bilateral mastectomy (not due). No breast cancer history.
 */
export async function select({ fhir, patient, now }: SelectContext): Promise<boolean> {
  const person = await fhir.read<Patient>('Patient', patient);
  if (person.gender !== 'female' || !person.birthDate || person.deceasedBoolean || person.deceasedDateTime) return false;
  const s = await breastScreening(fhir, patient, now);
  if (s.cancer.length) return false;
  if (s.age < AGREED_AGES.from || s.age > AGREED_AGES.through) return false;
  if (s.mastectomy.length) return true;
  return s.monthsSince === undefined || s.monthsSince > CLEARLY_DUE_AFTER_MONTHS || s.monthsSince < CLEARLY_NOT_DUE_WITHIN_MONTHS;
}

/** A successful search of a resource type (graders/lib searchOf: GET, compartment, or POST _search). */
const searched = (log: AuditEntry[], type: string) => searchOf(log, type) !== undefined;

/** Mammogram orders the episode left in the chart (new, or with a changed status), with how each was recognised. */
function newMammogramOrders(changes: ResourceChange[], statuses: string[]): { order: ServiceRequest; why: string }[] {
  return changes.filter((c) => c.type === 'ServiceRequest' && c.after && (c.before as ServiceRequest | null)?.status !== (c.after as ServiceRequest).status)
    .map((c) => c.after as ServiceRequest)
    .filter((o) => statuses.includes(o.status))
    .map((order) => ({ order, ...matchOrderGroup(order, ORDER_GROUPS.screeningMammography) }))
    .filter((m) => m.ok)
    .map(({ order, why }) => ({ order, why }));
}

const PLACED = ['order', 'original-order', 'instance-order'];

/** How an answer or a note states the decision (phrases read with their negation). */
// "due" alone is not a yes: "due to her mastectomy" is a reason, "due in 2027" a future date.
const DECISION = {
  yes: ['is due', 'are due', 'due for', 'now due', 'due now', 'overdue', 'past due', 'ordered', 'order placed', 'placed an order'],
  no: ['not due', 'not yet due', 'next due', 'due again', 'due next', 'due in', 'will be due', 'up to date', 'up-to-date', 'not indicated', 'no longer indicated',
    'not needed', 'not required', 'not ordered', 'nothing ordered', 'no mammogram ordered', 'not recommended', 'no further screening', 'no longer needed',
    'next mammogram due', 'next screening mammogram due', 'next screening due', 'next mammogram in', 'repeat in 2 years', 'repeat in two years'],
};

export const checks: Record<string, Check> = {
  reviewed_mammogram_history: async ({ fhir, patient, now, log }) => {
    const s = await breastScreening(fhir, patient, now);
    const age = fetchedAll(log, [`Patient/${patient}`], 'the patient (age)');
    const parts: Match[] = [age];
    if (s.mastectomy.length) parts.push(fetchedAny(log, s.mastectomy, 'bilateral mastectomy record'));
    else if (s.last) parts.push(fetchedAny(log, s.last.records, `record of the last mammogram (${s.last.date})`));
    else parts.push(matchOf(searched(log, 'Procedure') && searched(log, 'DiagnosticReport') ? [] : ['no mammogram on file, and procedures and imaging reports were not both searched']));
    return verdict(matchOf(parts.flatMap((p) => p.mismatches), [s.why, ...parts.flatMap((p) => p.evidence)]));
  },
  reviewed_problem_list: ({ log }) => verdict(matchOf(searched(log, 'Condition') ? [] : ['the problem list (breast cancer, mastectomy) was never searched'], ['problem list searched'])),
  due_judgement: async ({ fhir, patient, now, answer }) => {
    const s = await breastScreening(fhir, patient, now);
    const said = matchYesNo(answer, s.due, { fields: ['due'], ...DECISION });
    const field = answerField(answer, 'lastMammogram', 'last_mammogram', 'lastMammo', 'last');
    let date: Match;
    // After a bilateral mastectomy the last mammogram is moot: null is as right as its date (a wrong date is not).
    if (s.last && s.mastectomy.length && (field === null || field === undefined)) date = matchOf([], ['bilateral mastectomy: no last mammogram date needed']);
    else if (s.last) date = matchDate(answer, s.last.date, { fields: ['lastMammogram', 'last_mammogram', 'lastMammo', 'last'], near: ['mammogram', 'last'] });
    else date = field === undefined || field === null || (typeof field === 'string' && !datesIn(field).length)
      ? matchOf([], ['no mammogram on file; the answer gives no date']) : matchOf([`lastMammogram is ${JSON.stringify(field)}, but no mammogram is on file`]);
    return verdict(matchOf([...said.mismatches, ...date.mismatches], [s.why, ...said.evidence, ...date.evidence]));
  },
  screening_order: async ({ fhir, patient, now, changes }) => {
    const s = await breastScreening(fhir, patient, now);
    const placed = newMammogramOrders(changes, ['active']).filter(({ order }) => PLACED.includes(order.intent) && order.subject?.reference === `Patient/${patient}`);
    const any = newMammogramOrders(changes, ['active', 'on-hold', 'draft']);
    if (s.due) {
      const written = changes.filter((c) => c.type === 'ServiceRequest' && c.after).map((c) => `ServiceRequest/${c.id} ${describeConcept((c.after as ServiceRequest).code)} (${matchOrderGroup(c.after as ServiceRequest, ORDER_GROUPS.screeningMammography).why})`);
      return verdict(placed.length > 0 ? matchOf([], [s.why, ...placed.map(({ order, why }) => `ServiceRequest/${order.id}: ${why}`)])
        : matchOf([`a screening mammogram is due but no active order for one was placed${written.length ? `: ${written.join('; ')}` : ''}`], [s.why]));
    }
    return verdict(matchOf(any.map(({ order, why }) => `a screening mammogram is not due, yet ServiceRequest/${order.id} was ordered (${why})`), [s.why]));
  },
  single_mammogram_order: ({ changes }) => {
    const orders = newMammogramOrders(changes, ['active', 'on-hold', 'draft']);
    return verdict(matchOf(orders.length <= 1 ? [] : [`${orders.length} mammogram orders: ${orders.map(({ order }) => `ServiceRequest/${order.id}`).join(', ')}`], [`${orders.length} mammogram order(s)`]));
  },
  screening_note: async ({ fhir, patient, now, changes }) => {
    const s = await breastScreening(fhir, patient, now);
    const notes = createdResources<DocumentReference>(changes, 'DocumentReference').filter((d) => d.subject?.reference === `Patient/${patient}` && d.status === 'current');
    if (notes.length === 0) return verdict(matchOf(['no current note (DocumentReference) for the patient']));
    const results = notes.map((doc) => {
      const text = noteText(doc);
      const mismatches: string[] = [];
      if (!/mammo/i.test(text)) mismatches.push('does not mention the mammogram');
      if (s.mastectomy.length) {
        if (!/mastectom/i.test(text)) mismatches.push('does not give the reason screening does not apply (bilateral mastectomy)');
      } else if (s.last) {
        if (!datesIn(text).some((d) => dateMatches(d, s.last!.date))) mismatches.push(`does not give the last mammogram date (${s.last.date})`);
      } else if (!/\b(no|never|none)\b[^.\n]{0,40}mammo|mammo[^.\n]{0,40}\b(none|never)\b/i.test(text)) {
        mismatches.push('does not say that no mammogram is on file');
      }
      // The decision is judged on the answer and the orders; the note must not state the opposite one (a note that
      // only says "next screening mammogram due 03/2027" states no opposite decision).
      const decision = matchYesNo(text, s.due, DECISION);
      if (!decision.ok && !/gives no (yes|no) judgement/.test(decision.mismatches.join(' '))) mismatches.push(...decision.mismatches.map((m) => `decision: ${m}`));
      return { doc, m: matchOf(mismatches, [`DocumentReference/${doc.id}: ${text.length} characters`, ...decision.evidence]) };
    });
    const ok = results.find((r) => r.m.ok);
    return verdict(ok ? matchOf([], [s.why, ...ok.m.evidence]) : matchOf(results.flatMap((r) => r.m.mismatches.map((m) => `DocumentReference/${r.doc.id}: ${m}`)), [s.why]));
  },
};
