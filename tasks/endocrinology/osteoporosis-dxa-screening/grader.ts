// Grader: whether a screening DXA is due comes from the chart (USPSTF 2025: women 65+; a DXA in the last 2 years means
// screening is done for now, by any record of it); when due, one DXA order with its indication, however coded; when
// not due, none. The answer and the note are judged on the decision they state, read with negation.
import type { Condition, DiagnosticReport, DocumentReference, MedicationRequest, Patient, Procedure, ServiceRequest } from '@medplum/fhirtypes';
import type { AuditEntry, ResourceChange } from '../../../contracts/gym-api.ts';
import type { Check, SelectContext } from '../../../contracts/task.ts';
import type { FhirClient } from '../../../contracts/fhir-client.ts';
import { searchOf,
  allOf, answerField, codingsOf, createdResources, datesIn, dateMatches, conceptIs, fetchedAny, findServiceRequest, inCodeSet, matchDate, matchOf, matchYesNo,
  matchesOrderGroup, noteText, ORDER_GROUPS, verdict, type Match,
} from '../../../graders/lib/index.ts';
import { DXA_RECORD, OSTEOPOROSIS, OSTEOPOROSIS_THERAPY, RECENT_DXA_MONTHS, SCREENING_AGES } from './facts.ts';

const DAY_MS = 86_400_000;

function completedYears(birthDate: string, now: string): number {
  const [by, bm, bd] = birthDate.split('-').map(Number);
  const at = new Date(now);
  return at.getUTCFullYear() - by - (at.getUTCMonth() + 1 < bm || (at.getUTCMonth() + 1 === bm && at.getUTCDate() < bd) ? 1 : 0);
}

export interface ScreeningFacts {
  eligible: boolean; age?: number; due?: boolean;
  /** The latest DXA: its date and every record of that day (report, procedure). */
  last?: { date: string; refs: string[] };
  why: string;
}

/** The screening decision from the chart as it stood before the agent wrote (the agent's own orders are not DXAs). */
export async function screeningFacts(fhir: FhirClient, patient: string, now: string): Promise<ScreeningFacts> {
  const p = await fhir.read<Patient>('Patient', patient);
  if (p.gender !== 'female' || !p.birthDate || p.deceasedBoolean || p.deceasedDateTime) return { eligible: false, why: 'not a living woman with a birth date' };
  const age = completedYears(p.birthDate, now);
  const conditions = await fhir.search<Condition>('Condition', { patient, _count: 1000 });
  const osteoporosis = conditions.some((c) => codingsOf(c.code).some((x) => OSTEOPOROSIS.snomed.includes(x.code ?? '') || OSTEOPOROSIS.icd10Prefixes.some((pre) => (x.code ?? '').startsWith(pre))));
  const meds = await fhir.search<MedicationRequest>('MedicationRequest', { patient, _count: 1000 });
  const treated = meds.some((m) => ['active', 'on-hold'].includes(m.status) && conceptIs(m.medicationCodeableConcept, OSTEOPOROSIS_THERAPY));
  const reports = (await fhir.search<DiagnosticReport>('DiagnosticReport', { patient, _count: 1000 }))
    .filter((r) => inCodeSet(r.code, DXA_RECORD) && ['final', 'amended', 'corrected', 'preliminary'].includes(r.status))
    .map((r) => ({ ref: `DiagnosticReport/${r.id}`, when: r.effectiveDateTime ?? r.effectivePeriod?.start ?? r.issued }));
  const procedures = (await fhir.search<Procedure>('Procedure', { patient, _count: 1000 }))
    .filter((x) => inCodeSet(x.code, DXA_RECORD) && x.status === 'completed')
    .map((x) => ({ ref: `Procedure/${x.id}`, when: x.performedDateTime ?? x.performedPeriod?.start }));
  const records = [...reports, ...procedures].filter((r): r is { ref: string; when: string } => !!r.when).sort((a, b) => Date.parse(b.when) - Date.parse(a.when));
  const latest = records[0];
  const last = latest ? { date: latest.when.slice(0, 10), refs: records.filter((r) => Math.abs(Date.parse(r.when) - Date.parse(latest.when)) < DAY_MS).map((r) => r.ref) } : undefined;
  const months = latest ? (Date.parse(now) - Date.parse(latest.when)) / (30.44 * DAY_MS) : undefined;
  const inAges = age >= SCREENING_AGES.from && age <= SCREENING_AGES.through;
  const base = `woman aged ${age}, last DXA ${last ? `${last.date} (${months!.toFixed(0)} months ago)` : 'none on file'}`;
  if (!inAges || osteoporosis || treated) return { eligible: false, age, last, why: `${base}; ${!inAges ? 'outside 65-84' : 'osteoporosis diagnosed or treated'}` };
  if (months === undefined) return { eligible: true, age, due: true, last, why: `${base}: due (USPSTF 2025, women 65+)` };
  if (months < RECENT_DXA_MONTHS) return { eligible: true, age, due: false, last, why: `${base}: not due (DXA within 2 years)` };
  return { eligible: false, age, last, why: `${base}: rescreening interval disputed` };
}

/** Variants: women 65-84 without osteoporosis or its treatment, with no DXA on file (due) or one in the last 2 years. */
export async function select({ fhir, patient, now }: SelectContext): Promise<boolean> {
  return (await screeningFacts(fhir, patient, now)).eligible;
}

const searched = (log: AuditEntry[], type: string) => searchOf(log, type) !== undefined;

const dxaOrders = (changes: ResourceChange[]) => createdResources<ServiceRequest>(changes, 'ServiceRequest').filter((s) => matchesOrderGroup(s, ORDER_GROUPS.dxa));

/** The order says why it is done: a coded reason (e.g. ICD-10 Z13.820, Z78.0) or words for screening / bone health. */
function statesIndication(order: ServiceRequest): boolean {
  if (codingsOf(order.reasonCode).some((c) => c.code)) return true;
  const text = [...(order.reasonCode ?? []).map((r) => r.text), ...(order.reasonReference ?? []).map((r) => r.display ?? r.reference), ...(order.note ?? []).map((n) => n.text)].filter(Boolean).join(' ');
  return /osteopor|bone (density|loss|health|mass)|fracture|screen|uspstf|menopaus/i.test(text);
}

/** Phrases that state the decision; "next DXA due 2027" and "not due" are a no, "due" and "ordered" a yes. */
const DECISION = {
  yes: ['due', 'is due', 'indicated', 'recommended', 'ordered', 'order placed', 'recommend screening', 'screening dxa ordered'],
  no: ['not due', 'not yet due', 'not indicated', 'not needed', 'not recommended', 'not ordered', 'no dxa ordered', 'no order', 'no repeat', 'next dxa due', 'next due',
    'next scan due', 'next screening due', 'due in', 'due again', 'repeat in', 'up to date', 'done within'],
};

/** The text without questions and reported requests ("is she due?"): they are not the author's decision. */
function withoutQuestions(text: string): string {
  return text.split(/(?<=[.!?\n])\s+/).filter((s) => !/\?\s*$/.test(s) && !/\b(request(s|ed)?|asks?|asking|asked|wondering)\b/i.test(s)).join(' ');
}

export const checks: Record<string, Check> = {
  reviewed_bone_history: async ({ fhir, patient, now, log }) => {
    const s = await screeningFacts(fhir, patient, now);
    const problems = searched(log, 'Condition') ? [] : ['no Condition search (osteoporosis on the problem list)'];
    if (s.last) {
      const m = fetchedAny(log, s.last.refs, `latest DXA (${s.last.date})`);
      problems.push(...m.mismatches);
    } else {
      // A DXA may be on file as a report or as a procedure only: with none found, both were searched.
      for (const type of ['Procedure', 'DiagnosticReport']) if (!searched(log, type)) problems.push(`no ${type} search (a prior DXA may be recorded only there)`);
    }
    return verdict(matchOf(problems, [s.why]));
  },
  reviewed_medications: ({ log }) => verdict(matchOf(searched(log, 'MedicationRequest') || searched(log, 'MedicationStatement') ? [] : ['no MedicationRequest/MedicationStatement search (osteoporosis treatment, glucocorticoids)'], ['medication list searched'])),
  due_judgement: async ({ fhir, patient, now, answer }) => {
    const s = await screeningFacts(fhir, patient, now);
    if (s.due === undefined) return verdict(matchOf([`not a variant: ${s.why}`]));
    const due = matchYesNo(answer, s.due, { fields: ['due'], ...DECISION });
    const given = answerField(answer, 'lastDxa', 'last_dxa', 'lastDXA');
    let last: Match;
    if (s.last) last = matchDate(answer, s.last.date, { fields: ['lastDxa', 'last_dxa', 'lastDXA'], near: ['dxa', 'bone density', 'dexa'] });
    else {
      const saysNone = given === null || (typeof given === 'string' && /none|never|no prior|no previous|n\/a|not on file/i.test(given)) || (given === undefined && /\b(no|never)\b[^.\n]{0,30}(dxa|dexa|bone density)/i.test(JSON.stringify(answer ?? '')));
      last = matchOf(saysNone ? [] : [`lastDxa is ${JSON.stringify(given)}, expected none (no DXA on file)`], [`lastDxa ${JSON.stringify(given)}`]);
    }
    return verdict(allOf(due, last, matchOf([], [s.why])));
  },
  screening_order: async ({ fhir, patient, now, changes }) => {
    const s = await screeningFacts(fhir, patient, now);
    if (s.due === undefined) return verdict(matchOf([`not a variant: ${s.why}`]));
    const orders = dxaOrders(changes);
    if (!s.due) return verdict(matchOf(orders.map((o) => `ServiceRequest/${o.id} (${o.status}) orders a DXA: ${s.why}`), [s.why, 'no DXA ordered']));
    const m = findServiceRequest(orders, { patient, group: ORDER_GROUPS.dxa, status: ['active'], intent: ['order', 'original-order'] });
    const withReason = orders.filter((o) => o.status === 'active' && statesIndication(o));
    return verdict(allOf(m, matchOf(orders.length && !withReason.length ? ['the DXA order states no indication (reasonCode, reasonReference or note)'] : [], [s.why])));
  },
  single_dxa_order: ({ changes }) => {
    const orders = dxaOrders(changes);
    return verdict(matchOf(orders.length <= 1 ? [] : [`${orders.length} DXA orders: ${orders.map((o) => `ServiceRequest/${o.id}`).join(', ')}`], [`${orders.length} DXA order(s)`]));
  },
  decision_note: async ({ fhir, patient, now, changes }) => {
    const s = await screeningFacts(fhir, patient, now);
    if (s.due === undefined) return verdict(matchOf([`not a variant: ${s.why}`]));
    const notes = createdResources<DocumentReference>(changes, 'DocumentReference').filter((d) => d.subject?.reference === `Patient/${patient}` && d.status === 'current');
    if (notes.length === 0) return verdict(matchOf(['no current note (DocumentReference) for the patient']));
    const results = notes.map((doc) => {
      const text = noteText(doc);
      const mismatches: string[] = [];
      if (!/\bdxa\b|\bdexa\b|bone (mineral )?density|densitometr/i.test(text)) mismatches.push('does not mention the DXA / bone density');
      if (s.last) {
        if (!datesIn(text).some((d) => dateMatches(d, s.last!.date))) mismatches.push(`does not give the last DXA date (${s.last.date})`);
      } else if (!/\b(no|never|none)\b[^.\n]{0,40}(dxa|dexa|bone density|densitometr)|(dxa|dexa|bone density)[^.\n]{0,40}\b(none|never)\b/i.test(text)) {
        mismatches.push('does not say that no DXA is on file');
      }
      const decision = matchYesNo(withoutQuestions(text), s.due!, DECISION);
      if (!decision.ok) mismatches.push(...decision.mismatches.map((m) => `decision: ${m}`));
      return { doc, m: matchOf(mismatches, [`DocumentReference/${doc.id}: ${text.length} characters`, ...decision.evidence]) };
    });
    const ok = results.find((r) => r.m.ok);
    return verdict(ok ? matchOf([], [s.why, ...ok.m.evidence]) : matchOf(results.flatMap((r) => r.m.mismatches.map((m) => `DocumentReference/${r.doc.id}: ${m}`)), [s.why]));
  },
};
