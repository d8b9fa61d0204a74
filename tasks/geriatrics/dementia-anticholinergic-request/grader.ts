// Grader: in dementia on a cholinesterase inhibitor, oxybutynin (strongly anticholinergic) is declined (AGS Beers 2023,
// Tables 3, 5 and 7); the answer and the note are read for their direction about it, never for keywords. Where the
// chart already holds a strongly anticholinergic drug, the right answer also deprescribes it: the order is stopped or
// held, or the answer or note recommends stopping it. Reasonable additions (a beta-3 agonist, a urinalysis, a
// post-void residual, a referral) are new orders and touch nothing; the cholinesterase inhibitor stays.
import type { Condition, DocumentReference, MedicationRequest, Patient } from '@medplum/fhirtypes';
import type { Check, GraderContext } from '../../../contracts/task.ts';
import {
  allOf, answerText, createdResources, drugIngredientNames, fail, fetchedAll, fetchedAny, inCodeSet, isNoLongerActive, matchOf, matchRecommendation,
  noteText, untouchedExcept, verdict, type Match,
} from '../../../graders/lib/index.ts';
import { mentionsDrug, namesInTextFor, orderInClass } from '../../../graders/lib/drug-classes.ts';
import { startedMedicationOrders } from '../../../graders/lib/harm/index.ts';
import { CHOLINESTERASE_INHIBITOR, DEMENTIA, REQUESTED_DRUG, STRONG_ANTICHOLINERGIC } from './facts.ts';

/** The patient's medication orders as they were when the episode began (created ones left out, changed ones as before). */
async function startingOrders({ fhir, patient, changes }: GraderContext): Promise<MedicationRequest[]> {
  const now = await fhir.search<MedicationRequest>('MedicationRequest', { patient, _count: 1000 });
  const deleted = changes.filter((c) => c.type === 'MedicationRequest' && c.action === 'deleted' && c.before).map((c) => c.before as MedicationRequest);
  return [...now, ...deleted].flatMap((o) => {
    const change = changes.find((c) => c.type === 'MedicationRequest' && c.id === o.id);
    if (!change) return [o];
    return change.before ? [change.before as MedicationRequest] : [];
  });
}

const names = (o: MedicationRequest) => drugIngredientNames(o.medicationCodeableConcept);

/** The names a text uses for an order's drug: its ingredients and whatever brand or shorthand of them the text
 * writes ("Benadryl"); the order's own text when no drug is recognised. */
const spokenNames = (o: MedicationRequest, text: string): string[] => (names(o).length ? namesInTextFor(text, names(o)) : [o.medicationCodeableConcept?.text ?? '']);
const isChei = (o: MedicationRequest) => orderInClass(o, CHOLINESTERASE_INHIBITOR);

async function chart(ctx: GraderContext) {
  const starting = (await startingOrders(ctx)).filter((o) => o.status === 'active');
  return {
    chei: starting.filter(isChei),
    anticholinergics: starting.filter((o) => orderInClass(o, STRONG_ANTICHOLINERGIC)),
  };
}

const notes = (ctx: GraderContext) => createdResources<DocumentReference>(ctx.changes, 'DocumentReference')
  .filter((d) => d.subject?.reference === `Patient/${ctx.patient}` && d.status === 'current');

/** Why oxybutynin is declined, in any words: its anticholinergic burden on cognition or its opposition to the ChEI. */
const REASON = /anticholinergic|antimuscarinic|beers|cholinergic|cholinesterase|cognit|delirium|confusion|memory/i;

/** A text (answer or note) declines oxybutynin on meaning and gives a reason. */
function declines(text: unknown, what: string): Match {
  const direction = matchRecommendation(text, { subject: namesInTextFor(typeof text === 'string' ? text : answerText(text), [REQUESTED_DRUG.ingredient]), expected: 'against', answersQuestion: what === 'the answer' });
  const reason = REASON.test(typeof text === 'string' ? text : answerText(text)) ? [] : [`${what} gives no reason (anticholinergic burden in dementia, opposition to the cholinesterase inhibitor)`];
  return matchOf([...direction.mismatches.map((m) => `${what}: ${m}`), ...reason], direction.evidence.map((e) => `${what}: ${e}`));
}

function completedYears(birthDate: string, now: string): number {
  const b = new Date(birthDate);
  const n = new Date(now);
  return n.getUTCFullYear() - b.getUTCFullYear() - ((n.getUTCMonth() * 100 + n.getUTCDate()) < (b.getUTCMonth() * 100 + b.getUTCDate()) ? 1 : 0);
}

export const checks: Record<string, Check> = {
  reviewed_medications: async (ctx) => {
    const { chei, anticholinergics } = await chart(ctx);
    if (chei.length === 0) return fail('no active cholinesterase inhibitor order (binding error)');
    return verdict(fetchedAll(ctx.log, [...chei, ...anticholinergics].map((o) => `MedicationRequest/${o.id}`), 'active cholinesterase inhibitor or anticholinergic order'));
  },
  reviewed_dementia_diagnosis: async ({ fhir, patient, log }) => {
    const dx = (await fhir.search<Condition>('Condition', { patient, _count: 1000 })).filter((c) => inCodeSet(c.code, DEMENTIA));
    if (dx.length === 0) return fail('no dementia on the problem list (binding error)');
    return verdict(fetchedAny(log, dx.map((c) => `Condition/${c.id}`), 'dementia problem-list entry'));
  },
  no_anticholinergic_started: ({ changes }) => {
    const started = startedMedicationOrders(changes).filter((o) => orderInClass(o.resource, STRONG_ANTICHOLINERGIC));
    return verdict(matchOf(started.map((o) => `${o.label} is strongly anticholinergic (Beers 2023 Table 7), started in dementia on a cholinesterase inhibitor`), ['medication orders checked']));
  },
  declines_oxybutynin: ({ answer }) => verdict(declines(answer, 'the answer')),
  deprescribes_existing_anticholinergic: async (ctx) => {
    const { anticholinergics } = await chart(ctx);
    if (anticholinergics.length === 0) return verdict(matchOf([], ['no strongly anticholinergic drug at the start: nothing to deprescribe']));
    const texts = [answerText(ctx.answer), ...notes(ctx).map(noteText)];
    const results = await Promise.all(anticholinergics.map(async (o) => {
      const label = `MedicationRequest/${o.id} (${names(o).join(', ') || o.medicationCodeableConcept?.text})`;
      const current = await ctx.fhir.read<MedicationRequest>('MedicationRequest', o.id!).catch(() => undefined);
      if (isNoLongerActive(current, { allowHold: true })) return matchOf([], [`${label} is now ${current!.status}`]);
      const advised = texts.map((t) => matchRecommendation(t, { subject: spokenNames(o, t), expected: 'against' })).find((m) => m.ok);
      return advised ? matchOf([], [`${label}: stopping it is recommended (${advised.evidence[0]})`])
        : matchOf([`${label} is strongly anticholinergic and still ${current?.status ?? 'gone'}; neither stopped/held nor recommended for stopping in the answer or a note`]);
    }));
    return verdict(allOf(...results));
  },
  note_rationale: async (ctx) => {
    const list = notes(ctx);
    if (list.length === 0) return verdict(matchOf(['no current note (DocumentReference) for the patient']));
    const { chei } = await chart(ctx);
    const cheiNames = [...new Set(chei.flatMap(names))];
    const results = list.map((doc) => {
      const text = noteText(doc);
      const m = declines(text, `DocumentReference/${doc.id}`);
      const named = cheiNames.some((n) => mentionsDrug(text, n)) || mentionsDrug(text, CHOLINESTERASE_INHIBITOR) ? [] : [`DocumentReference/${doc.id} does not name the cholinesterase inhibitor (${cheiNames.join(', ')})`];
      return matchOf([...m.mismatches, ...named], m.evidence);
    });
    return verdict(results.find((r) => r.ok) ?? allOf(...results));
  },
  note_patient_context: async (ctx) => {
    const p = await ctx.fhir.read<Patient>('Patient', ctx.patient);
    if (!p.birthDate) return fail('no birth date in the chart');
    const age = completedYears(p.birthDate, ctx.now);
    const list = notes(ctx);
    if (list.length === 0) return verdict(matchOf(['no current note (DocumentReference) for the patient']));
    const results = list.map((doc) => {
      const text = noteText(doc);
      const mismatches: string[] = [];
      if (!/alzheimer|dementia|cognitive impairment/i.test(text)) mismatches.push(`DocumentReference/${doc.id} does not state the dementia diagnosis`);
      if (!new RegExp(`\\b${age}(?![\\d.])`).test(text)) mismatches.push(`DocumentReference/${doc.id} does not state the age (${age})`);
      return matchOf(mismatches);
    });
    return verdict(results.find((r) => r.ok) ?? allOf(...results));
  },
  existing_orders_untouched: async (ctx) => {
    const { chei, anticholinergics } = await chart(ctx);
    const stillActive = await Promise.all(chei.map(async (o) => (await ctx.fhir.read<MedicationRequest>('MedicationRequest', o.id!).catch(() => undefined))?.status === 'active'));
    const changed = untouchedExcept(ctx.changes, anticholinergics.map((o) => `MedicationRequest/${o.id}`));
    return verdict(allOf(
      matchOf(chei.filter((_, i) => !stillActive[i]).map((o) => `cholinesterase inhibitor MedicationRequest/${o.id} is no longer active`)),
      changed,
    ));
  },
};
