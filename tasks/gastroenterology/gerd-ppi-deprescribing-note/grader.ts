// Grader: whether this patient should come off daily PPI is computed from the chart - a standing indication for
// long-term PPI (Barrett's esophagus, peptic stricture, severe erosive esophagitis, a bleeding ulcer) means continue
// (AGA 2022/2017), otherwise de-prescribe (stop, hold, on-demand or a lower-dose taper). The PPI orders must match
// that decision, the answer and the note are read for their direction about the PPI (never for keywords), and the
// note must carry the chart's facts.
import type { Condition, Dosage, DocumentReference, MedicationRequest } from '@medplum/fhirtypes';
import type { Check, GraderContext } from '../../../contracts/task.ts';
import { isAsNeeded,
  allOf, answerProse, changeOf, codingsOf, createdResources, dailyMg, describeConcept, fail, fetchedAll, findNote, inCodeSet, ingredientNamesOf,
  isNoLongerActive, label, latestObservation, matchOf, noteText, orderInClass, quantityOf, readDirection, verdict, type Match,
} from '../../../graders/lib/index.ts';
import { DEPRESCRIBING, DEPRESCRIBING_PHRASES, EGFR_RESULTS, GERD, HEMOGLOBIN_RESULTS, LONG_TERM_PPI_INDICATIONS, PPI_CLASS, PPI_NAMES } from './facts.ts';

const isPpi = (o: MedicationRequest) => orderInClass(o, PPI_CLASS);

/** As-needed (on-demand) use: the structured flag, or the sig says so. */
/** A time-limited course (a taper with an end): bounds with an end or a duration. */
function timeLimited(d: Dosage | undefined): boolean {
  const r = d?.timing?.repeat;
  return !!(r?.boundsPeriod?.end || r?.boundsDuration || r?.count);
}
/** Scheduled, open-ended PPI use: every dosage neither as-needed nor time-limited. */
function scheduledOpenEnded(o: MedicationRequest): boolean {
  const ds = o.dosageInstruction?.length ? o.dosageInstruction : [undefined];
  return ds.every((d) => !isAsNeeded(d) && !timeLimited(d));
}

/** The patient's PPI orders active when the episode began (their version before any change). */
async function startingPpiOrders({ fhir, patient, changes }: Pick<GraderContext, 'fhir' | 'patient' | 'changes'>): Promise<MedicationRequest[]> {
  const all = await fhir.search<MedicationRequest>('MedicationRequest', { patient, _count: 1000 });
  const out: MedicationRequest[] = [];
  for (const o of all) {
    const change = changeOf(changes, 'MedicationRequest', o.id!);
    if (change?.action === 'created') continue;
    const before = (change ? change.before : o) as MedicationRequest | null;
    if (before?.status === 'active' && isPpi(before)) out.push(before);
  }
  for (const c of changes) {
    const before = c.before as MedicationRequest | null;
    if (c.type === 'MedicationRequest' && c.action === 'deleted' && before?.status === 'active' && before.subject?.reference === `Patient/${patient}` && isPpi(before)) out.push(before);
  }
  return out;
}

/** Problems that are a standing indication for long-term PPI (resolved ones count: a bled ulcer stays a risk). */
export async function indicationsOf(fhir: GraderContext['fhir'], patient: string): Promise<{ condition: Condition; name: string }[]> {
  const conditions = await fhir.search<Condition>('Condition', { patient, _count: 1000 });
  return conditions.filter((c) => c.verificationStatus?.coding?.[0]?.code !== 'entered-in-error').flatMap((c) => {
    const text = [c.code?.text, ...codingsOf(c.code).map((x) => x.display)].join(' ').toLowerCase();
    const hit = LONG_TERM_PPI_INDICATIONS.find((i) => inCodeSet(c.code, i.codes) || i.words.some((w) => text.includes(w)));
    return hit ? [{ condition: c, name: hit.name }] : [];
  });
}

const notes = (ctx: GraderContext) => createdResources<DocumentReference>(ctx.changes, 'DocumentReference')
  .filter((d) => d.subject?.reference === `Patient/${ctx.patient}` && d.status === 'current');

/** A recommendation for PPI that is itself a step-down: on-demand use, a taper, a contingency. */
const STEP_DOWN = /\b(as needed|prn|on[- ]demand|as required|breakthrough|rescue|taper\w*|every other day|alternate days?|half|lowest effective|if (?:symptoms|heartburn|reflux))\b/i;

interface Statement { direction: 'recommend' | 'against'; strong: boolean; text: string; why: string }

/**
 * What the text says about the PPI: statements about the drug, plus statements about de-prescribing it with their
 * direction flipped ("not a candidate for de-prescribing" recommends the PPI). Where a clause speaks of both, the
 * de-prescribing reading wins ("candidate for PPI de-prescribing" is not a recommendation of the PPI).
 */
function ppiStatements(text: string): Statement[] {
  const about = readDirection(text, PPI_NAMES, { except: DEPRESCRIBING_PHRASES }).statements;
  // Only advice about de-prescribing is flipped: in "de-prescribing ... then stop" the stop is about the drug.
  const deprescribing = readDirection(text, DEPRESCRIBING).statements.filter((s) => !/^(?:stop|discontinu|cease|hold|held|paus)/i.test(s.why));
  const overlaps = (a: { start: number; end: number }) => deprescribing.some((d) => a.start < d.end && a.end > d.start);
  return [
    ...about.filter((s) => !overlaps(s)),
    ...deprescribing.map((s) => ({ ...s, direction: s.direction === 'recommend' ? 'against' as const : 'recommend' as const, why: `${s.why} (about de-prescribing)` })),
  ];
}

/** The text's direction about the PPI fits the decision: de-prescribe (stop/step down) or continue. */
function directionFits(text: string, deprescribe: boolean, what: string): Match {
  const statements = ppiStatements(text);
  const shown = statements.map((s) => `${s.direction}${s.strong ? '' : ' (weak)'}: "${s.text.slice(0, 100)}" (${s.why})`);
  const strong = statements.filter((s) => s.strong);
  if (deprescribe) {
    const keeps = strong.filter((s) => s.direction === 'recommend' && !STEP_DOWN.test(s.text));
    if (keeps.length > 0) return matchOf([`${what} recommends continuing scheduled PPI: ${keeps.map((s) => `"${s.text.slice(0, 100)}"`).join('; ')}`, ...shown]);
    const stepsDown = statements.some((s) => s.direction === 'against') || STEP_DOWN.test(text);
    if (!stepsDown) return matchOf([`${what} never recommends stopping or stepping down the PPI`, ...shown]);
    return matchOf([], [`${what} recommends de-prescribing`, ...shown]);
  }
  const stops = strong.filter((s) => s.direction === 'against');
  if (stops.length > 0) return matchOf([`${what} recommends stopping the PPI although the chart holds a standing indication: ${stops.map((s) => `"${s.text.slice(0, 100)}"`).join('; ')}`, ...shown]);
  if (!strong.some((s) => s.direction === 'recommend')) return matchOf([`${what} does not recommend continuing the PPI although the chart holds a standing indication`, ...shown]);
  return matchOf([], [`${what} recommends continuing the PPI`, ...shown]);
}

export const checks: Record<string, Check> = {
  reviewed_ppi_order: async (ctx) => {
    const start = await startingPpiOrders(ctx);
    if (start.length === 0) return fail('no active PPI order at the start (binding error)');
    const conditions = (await ctx.fhir.search<Condition>('Condition', { patient: ctx.patient, _count: 1000 })).filter((c) => inCodeSet(c.code, GERD));
    const indications = await indicationsOf(ctx.fhir, ctx.patient);
    return verdict(allOf(
      fetchedAll(ctx.log, start.map((o) => `MedicationRequest/${o.id}`), 'PPI order'),
      fetchedAll(ctx.log, [...indications.map((i) => `Condition/${i.condition.id}`), ...conditions.slice(0, 1).map((c) => `Condition/${c.id}`)], 'GERD or long-term PPI indication'),
    ));
  },
  reviewed_cbc_and_kidney: async ({ fhir, patient, log }) => {
    const hgb = await latestObservation(fhir, patient, HEMOGLOBIN_RESULTS);
    const egfr = await latestObservation(fhir, patient, EGFR_RESULTS);
    if (!hgb || !egfr) return fail('no hemoglobin or eGFR in the chart (binding error)');
    return verdict(fetchedAll(log, [`Observation/${hgb.id}`, `Observation/${egfr.id}`], 'latest result'));
  },
  ppi_orders_match_decision: async (ctx) => {
    const start = await startingPpiOrders(ctx);
    if (start.length === 0) return fail('no active PPI order at the start (binding error)');
    const indications = await indicationsOf(ctx.fhir, ctx.patient);
    const deleted = start.filter((o) => changeOf(ctx.changes, 'MedicationRequest', o.id!)?.action === 'deleted')
      .map((o) => `${label(o)} was deleted instead of stopped or kept (the order history is lost)`);
    const endActive = (await ctx.fhir.search<MedicationRequest>('MedicationRequest', { patient: ctx.patient, status: 'active', _count: 1000 }))
      .filter((o) => o.status === 'active' && isPpi(o));
    if (indications.length > 0) {
      const kept = endActive.filter(scheduledOpenEnded);
      return verdict(allOf(matchOf(deleted), matchOf(kept.length ? [] : [`no scheduled PPI remains active although the chart holds ${indications.map((i) => i.name).join(', ')} (AGA 2022: not a candidate for de-prescribing)`],
        [`indication: ${indications.map((i) => `${i.name} (Condition/${i.condition.id})`).join(', ')}`, ...kept.map((o) => `${label(o)} active`)])));
    }
    const startMg = Math.max(...start.map((o) => dailyMg(o) ?? 0));
    const startNames = new Set(start.flatMap((o) => ingredientNamesOf(o.medicationCodeableConcept)));
    const problems: string[] = [];
    for (const o of endActive) {
      if (!scheduledOpenEnded(o)) continue;
      const same = ingredientNamesOf(o.medicationCodeableConcept).some((n) => startNames.has(n));
      const mg = dailyMg(o);
      if (!same) problems.push(`${label(o)} (${describeConcept(o.medicationCodeableConcept)}) is a scheduled daily PPI: a switch, not a step-down`);
      else if (mg === undefined || mg >= startMg) problems.push(`${label(o)} still gives ${mg ?? 'an unreadable dose of'} mg/day scheduled (started at ${startMg} mg/day): not stopped or stepped down`);
    }
    return verdict(allOf(matchOf(deleted), matchOf(problems, [`no standing indication: de-prescribe; ${endActive.length} active PPI order(s) at the end`,
      ...start.map((o) => { const a = changeOf(ctx.changes, 'MedicationRequest', o.id!)?.after as MedicationRequest | undefined; return `${label(o)} -> ${a?.status ?? o.status}${a && isNoLongerActive(a, { allowHold: true }) ? ' (out of use)' : ''}`; })])));
  },
  recommendation_direction: async (ctx) => {
    const deprescribe = (await indicationsOf(ctx.fhir, ctx.patient)).length === 0;
    const note = notes(ctx).at(-1);
    if (!note) return fail('no current DocumentReference was written for the patient');
    const answer = answerProse(ctx.answer);
    return verdict(allOf(directionFits(noteText(note), deprescribe, 'the note'), directionFits(answer, deprescribe, 'the answer')));
  },
  note_history: async (ctx) => {
    const start = await startingPpiOrders(ctx);
    const years = [...new Set(start.map((o) => (o.authoredOn ?? '').slice(0, 4)).filter(Boolean))];
    const names = [...new Set(start.flatMap((o) => ingredientNamesOf(o.medicationCodeableConcept)))];
    return verdict(findNote(notes(ctx), { patient: ctx.patient, status: ['current'], mustMention: [['gerd', 'reflux'], names, years] }));
  },
  note_labs: async (ctx) => {
    const hgb = quantityOf(await latestObservation(ctx.fhir, ctx.patient, HEMOGLOBIN_RESULTS));
    const egfr = quantityOf(await latestObservation(ctx.fhir, ctx.patient, EGFR_RESULTS));
    if (!hgb || !egfr) return fail('no hemoglobin or eGFR in the chart (binding error)');
    return verdict(findNote(notes(ctx), {
      patient: ctx.patient,
      mustQuote: [{ value: hgb.value, tolerance: { absolute: 0.05 }, what: 'latest hemoglobin' }, { value: egfr.value, tolerance: { absolute: 0.5 }, what: 'latest eGFR' }],
    }));
  },
  note_plan: async (ctx) => {
    const indications = await indicationsOf(ctx.fhir, ctx.patient);
    if (indications.length > 0) {
      // The reason to continue is the indication itself: the note must name it.
      const words = [...new Set(indications.flatMap((i) => LONG_TERM_PPI_INDICATIONS.find((x) => x.name === i.name)!.words))];
      return verdict(findNote(notes(ctx), { patient: ctx.patient, status: ['current'], mustMention: [words] }));
    }
    // AGA 2022: warn of transient rebound symptoms and say what to do if they recur.
    return verdict(findNote(notes(ctx), { patient: ctx.patient, status: ['current'], mustMention: [['recur', 'return', 'rebound', 'if symptoms', 'breakthrough']] }));
  },
};
