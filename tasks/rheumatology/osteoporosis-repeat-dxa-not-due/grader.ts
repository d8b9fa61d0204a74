// Grader: the latest DXA (any record; date and T-scores) and how long treatment has run come from the chart; a repeat
// is due after 5+ years of treatment with the last DXA 2+ years old (drug-holiday reassessment), not due within a year
// of the last one. The orders carry out that decision; answer and note are judged on what they decide.
import type { DiagnosticReport, DocumentReference, MedicationRequest, Procedure, ServiceRequest } from '@medplum/fhirtypes';
import type { Check, GraderContext, SelectContext } from '../../../contracts/task.ts';
import type { FhirClient } from '../../../contracts/fhir-client.ts';
import {
  allOf, answerField, answerText, createdResources, datesIn, dateMatches, describeConcept, conceptIs, fail, fetchedAll, fetchedAny, findServiceRequest, inCodeSet,
  matchDate, matchesOrderGroup, matchOf, matchYesNo, noteText, numbersIn, ORDER_GROUPS, verdict, type Match,
} from '../../../graders/lib/index.ts';
import { DXA_RECORD, INTERVALS, NEXT_DUE_MONTHS, OSTEOPOROSIS_THERAPY } from './facts.ts';

const DAY_MS = 86_400_000;
const MONTH_MS = 30.44 * DAY_MS;

export const isOsteoporosisDrug = (o: MedicationRequest) =>
  conceptIs(o.medicationCodeableConcept, OSTEOPOROSIS_THERAPY);

export interface DxaFacts {
  /** The latest DXA: every record of that day, its date, T-scores read from the report. */
  last?: { refs: string[]; when: string; dates: string[]; lumbar?: number; femoral?: number };
  treatment: MedicationRequest[];
  treatmentYears?: number;
  due?: boolean;
  why: string;
}

const tScore = (text: string, site: string) => {
  const m = new RegExp(`(?:${site})[^.;]*?T-score\\s*(-?\\d+(?:\\.\\d+)?)`, 'i').exec(text);
  return m ? Number(m[1]) : undefined;
};

/** The chart's DXA history and treatment as they stood before the agent wrote (the agent adds neither). */
export async function dxaFacts(fhir: FhirClient, patient: string, now: string): Promise<DxaFacts> {
  const reports = (await fhir.search<DiagnosticReport>('DiagnosticReport', { patient, _count: 1000 }))
    .filter((r) => inCodeSet(r.code, DXA_RECORD) && ['final', 'amended', 'corrected'].includes(r.status))
    .map((r) => ({ ref: `DiagnosticReport/${r.id}`, when: r.effectiveDateTime ?? r.issued, text: r.conclusion ?? '' }));
  const procedures = (await fhir.search<Procedure>('Procedure', { patient, _count: 1000 }))
    .filter((x) => inCodeSet(x.code, DXA_RECORD) && x.status === 'completed')
    .map((x) => ({ ref: `Procedure/${x.id}`, when: x.performedDateTime ?? x.performedPeriod?.start, text: (x.note ?? []).map((n) => n.text).join(' ') }));
  const records = [...reports, ...procedures].filter((r): r is { ref: string; when: string; text: string } => !!r.when).sort((a, b) => Date.parse(b.when) - Date.parse(a.when));
  const meds = await fhir.search<MedicationRequest>('MedicationRequest', { patient, _count: 1000 });
  const all = meds.filter(isOsteoporosisDrug);
  const treatment = all.filter((o) => o.status === 'active');
  const started = all.map((o) => o.authoredOn).filter((d): d is string => !!d).sort()[0];
  const treatmentYears = treatment.length && started ? (Date.parse(now) - Date.parse(started)) / (365.25 * DAY_MS) : undefined;
  const latest = records[0];
  if (!latest) return { treatment, treatmentYears, why: 'no DXA on file' };
  const sameDay = records.filter((r) => Math.abs(Date.parse(r.when) - Date.parse(latest.when)) < DAY_MS);
  const text = sameDay.map((r) => r.text).join(' ');
  const last = {
    refs: sameDay.map((r) => r.ref), when: latest.when, dates: [...new Set([latest.when.slice(0, 10), new Date(latest.when).toISOString().slice(0, 10)])],
    lumbar: tScore(text, 'lumbar spine|spine'), femoral: tScore(text, 'femoral neck'),
  };
  const months = (Date.parse(now) - Date.parse(latest.when)) / MONTH_MS;
  const base = `last DXA ${last.dates[0]} (${months.toFixed(0)} months ago), treatment ${treatmentYears?.toFixed(1) ?? 'none active'} years`;
  if (!treatment.length) return { last, treatment, why: `${base}: not on treatment` };
  if (months < INTERVALS.notDueWithinMonths) return { last, treatment, treatmentYears, due: false, why: `${base}: not due (DXA within a year)` };
  if (months >= INTERVALS.dueFromMonths && (treatmentYears ?? 0) >= INTERVALS.treatmentYearsForReassessment) {
    return { last, treatment, treatmentYears, due: true, why: `${base}: due (5+ years of treatment, last DXA 2+ years old: reassess for a drug holiday)` };
  }
  return { last, treatment, treatmentYears, why: `${base}: interval disputed between guidelines` };
}

/** Variants: active osteoporosis treatment and a DXA on file, in a zone every guideline decides the same way. */
export async function select({ fhir, patient, now }: SelectContext): Promise<boolean> {
  return (await dxaFacts(fhir, patient, now)).due !== undefined;
}

const dxaOrders = (changes: GraderContext['changes']) => createdResources<ServiceRequest>(changes, 'ServiceRequest').filter((s) => matchesOrderGroup(s, ORDER_GROUPS.dxa));

/** Phrases that state the decision, read with negation ("not due", "next DXA due 2026" are a no). */
const DECISION = {
  yes: ['order a repeat', 'ordered', 'order placed', 'repeat dxa ordered', 'is due', 'due now', 'overdue', 'indicated', 'recommended'],
  no: ['not indicated', 'not due', 'not yet due', 'not yet', 'not needed', 'do not order', "don't order", 'not ordered', 'no dxa ordered', 'no repeat', 'too soon', 'too early',
    'next dxa due', 'next due', 'next scan due', 'due in', 'due on', 'due after', 'repeat in', 'not recommended'],
};

/** The text without questions and reported requests ("can you order a repeat DXA?"): they are not the decision. */
function withoutQuestions(text: string): string {
  return text.split(/(?<=[.!?\n])\s+/).filter((s) => !/\?\s*$/.test(s) && !/\b(request(s|ed)?|asks?|asking|asked|wondering|question)\b/i.test(s)).join(' ');
}

/** The window the next DXA may be set in (not-due variants). */
const nextWindow = (f: DxaFacts, now: string) => ({
  from: Math.max(Date.parse(f.last!.when) + NEXT_DUE_MONTHS.earliest * MONTH_MS - 31 * DAY_MS, Date.parse(now)),
  to: Date.parse(f.last!.when) + NEXT_DUE_MONTHS.latest * MONTH_MS + 31 * DAY_MS,
});
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export const checks: Record<string, Check> = {
  reviewed_last_dxa: async ({ fhir, patient, now, log }) => {
    const f = await dxaFacts(fhir, patient, now);
    if (!f.last) return fail('no DXA in the chart (binding error)');
    return verdict(fetchedAny(log, f.last.refs, `latest DXA (${f.last.dates[0]})`));
  },
  reviewed_treatment: async ({ fhir, patient, now, log }) => {
    const f = await dxaFacts(fhir, patient, now);
    if (!f.treatment.length) return fail('no active osteoporosis treatment (binding error)');
    return verdict(fetchedAll(log, f.treatment.map((o) => `MedicationRequest/${o.id}`), 'active osteoporosis treatment order'));
  },
  dxa_judgement: async ({ fhir, patient, now, answer }) => {
    const f = await dxaFacts(fhir, patient, now);
    if (f.due === undefined || !f.last) return fail(`not a variant: ${f.why}`);
    const order = matchYesNo(answer, f.due, { fields: ['orderDxa', 'order'], ...DECISION });
    const dates = f.last.dates.map((d) => matchDate(answer, d, { fields: ['lastDxa', 'last_dxa', 'lastDXA'], near: ['dxa', 'last', 'bone density'] }));
    return verdict(allOf(order, dates.find((m) => m.ok) ?? dates[0], matchOf([], [f.why])));
  },
  next_due_date: async ({ fhir, patient, now, answer }) => {
    const f = await dxaFacts(fhir, patient, now);
    if (f.due === undefined || !f.last) return fail(`not a variant: ${f.why}`);
    const given = answerField(answer, 'nextDue', 'next_due', 'nextDxa');
    if (f.due) {
      // Due now: the scan is ordered now, so a next-due date, if given, is now or within 3 months.
      const ordered = matchYesNo(answer, true, { fields: ['orderDxa', 'order'], ...DECISION });
      const dates = typeof given === 'string' ? datesIn(given) : [];
      const soon = given === null || given === undefined || dates.some((d) => Date.parse(d.value) <= Date.parse(now) + 92 * DAY_MS);
      return verdict(allOf(ordered, matchOf(soon ? [] : [`nextDue ${JSON.stringify(given)}: the DXA is due now`], [f.why])));
    }
    const w = nextWindow(f, now);
    // A prose answer gives the next date in words ("next DXA due 09/03/2026"): any date of the answer other than the
    // last DXA's may be it.
    const dates = typeof given === 'string' ? datesIn(given) : given === undefined ? datesIn(answerText(answer)).filter((d) => !f.last!.dates.some((x) => dateMatches(d, x))) : [];
    const hit = dates.find((d) => Date.parse(d.value) >= w.from && Date.parse(d.value) <= w.to);
    return verdict(matchOf(hit ? [] : [`nextDue ${JSON.stringify(given)}, expected a date from ${iso(w.from)} to ${iso(w.to)} (12 months to 5 years after the last DXA, not in the past)`], [f.why, `nextDue ${JSON.stringify(given)}`]));
  },
  dxa_order_matches: async ({ fhir, patient, now, changes }) => {
    const f = await dxaFacts(fhir, patient, now);
    if (f.due === undefined) return fail(`not a variant: ${f.why}`);
    const orders = dxaOrders(changes);
    if (!f.due) return verdict(matchOf(orders.map((o) => `ServiceRequest/${o.id} ${describeConcept(o.code)} (${o.status}): a repeat DXA was ordered; ${f.why}`), [f.why, 'no DXA ordered']));
    const m: Match = findServiceRequest(orders, { patient, group: ORDER_GROUPS.dxa, status: ['active'], intent: ['order', 'original-order'] });
    const extra = orders.length > 1 ? [`${orders.length} DXA orders`] : [];
    return verdict(allOf(m, matchOf(extra, [f.why])));
  },
  dxa_note: async ({ fhir, patient, now, changes }) => {
    const f = await dxaFacts(fhir, patient, now);
    if (f.due === undefined || !f.last) return fail(`not a variant: ${f.why}`);
    const notes = createdResources<DocumentReference>(changes, 'DocumentReference').filter((d) => d.subject?.reference === `Patient/${patient}` && d.status === 'current');
    if (notes.length === 0) return verdict(matchOf(['no current note (DocumentReference) for the patient']));
    const results = notes.map((doc) => {
      const text = noteText(doc);
      const mismatches: string[] = [];
      if (!/\bdxa\b|\bdexa\b|bone (mineral )?density|densitometr|\bbmd\b/i.test(text)) mismatches.push('does not mention the DXA / bone density');
      const dates = datesIn(text);
      if (!dates.some((d) => f.last!.dates.some((x) => dateMatches(d, x)))) mismatches.push(`does not give the last DXA date (${f.last!.dates[0]})`);
      const numbers = numbersIn(text).map((n) => n.value);
      for (const [what, v] of [['lumbar spine', f.last!.lumbar], ['femoral neck', f.last!.femoral]] as const) {
        if (v !== undefined && !numbers.some((n) => Math.abs(n - v) < 0.005)) mismatches.push(`does not quote the ${what} T-score (${v})`);
      }
      if (!f.due) {
        const w = nextWindow(f, now);
        if (!dates.some((d) => Date.parse(d.value) >= w.from && Date.parse(d.value) <= w.to)) mismatches.push(`does not say when the next DXA is due (a date from ${iso(w.from)} to ${iso(w.to)})`);
      }
      const decision = matchYesNo(withoutQuestions(text), f.due!, DECISION);
      if (!decision.ok) mismatches.push(...decision.mismatches.map((m) => `decision: ${m}`));
      return { doc, m: matchOf(mismatches, [`DocumentReference/${doc.id}: ${text.length} characters`, ...decision.evidence]) };
    });
    const ok = results.find((r) => r.m.ok);
    return verdict(ok ? matchOf([], [f.why, ...ok.m.evidence]) : matchOf(results.flatMap((r) => r.m.mismatches.map((m) => `DocumentReference/${r.doc.id}: ${m}`)), [f.why]));
  },
  no_treatment_change: ({ changes }) => {
    const meds = changes.filter((c) => c.type === 'MedicationRequest').map((c) => `${c.action} MedicationRequest/${c.id}: the question is the DXA; treatment changes wait for its result`);
    return verdict(matchOf(meds, [`${changes.length} changes checked`]));
  },
};
