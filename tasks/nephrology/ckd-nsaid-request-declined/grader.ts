// Grader: the requested ibuprofen must not be ordered (CKD on an ACE inhibitor/ARB); a systemic NSAID already active
// must be stopped or its stopping recommended; the answer and the note are read for their direction, never for
// keywords; the note's key facts (latest eGFR and potassium, CKD, the ACE inhibitor/ARB) come from the chart.
import type { Condition, DocumentReference, MedicationRequest, ServiceRequest } from '@medplum/fhirtypes';
import type { Check, CheckResult, GraderContext, SelectContext } from '../../../contracts/task.ts';
import { activeOrdersAtStart,
  allOf, answerText, changeOf, createdResources, describeConcept, fail, fetchedAll, inCodeSet, isNoLongerActive, label, latestObservation, matchOf,
  matchRecommendation, matchYesNo, noteText, verdict, type Match,
} from '../../../graders/lib/index.ts';
import { classesOfOrder, classNamesIn, conceptIs, ingredientNamesOf, namesInTextFor } from '../../../graders/lib/drug-classes.ts';
import { chartFromFhir, covers, grounded, keyFactOf } from '../../../graders/documentation/index.ts';
import { ALTERNATIVES, CKD_PROBLEMS, EGFR_RESULTS, NOT_REQUESTED, NSAID_CLASS, POTASSIUM_RESULTS, RAAS_CLASSES, REQUESTED } from './facts.ts';

const IN_FORCE = ['active', 'draft', 'on-hold'];
const isRaas = (o: MedicationRequest) => classesOfOrder(o).some((c) => RAAS_CLASSES.includes(c));
const isNsaid = (o: MedicationRequest) => classesOfOrder(o).includes(NSAID_CLASS);


export async function select({ fhir, patient }: SelectContext): Promise<boolean> {
  const active = await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active', _count: 1000 });
  return active.some((o) => o.status === 'active' && isRaas(o));
}

async function latestLabs({ fhir, patient }: Pick<GraderContext, 'fhir' | 'patient'>) {
  return { egfr: await latestObservation(fhir, patient, EGFR_RESULTS), k: await latestObservation(fhir, patient, POTASSIUM_RESULTS) };
}

const notes = (ctx: GraderContext) => createdResources<DocumentReference>(ctx.changes, 'DocumentReference')
  .filter((d) => d.subject?.reference === `Patient/${ctx.patient}` && d.status === 'current');

/** The names a text uses for the requested drug: ibuprofen by any name or brand, and NSAIDs as the text writes them. */
const requested = (text: string): string[] => [...namesInTextFor(text, [REQUESTED.drug]), ...classNamesIn(text, REQUESTED.drugClass), 'NSAID'];

/** The names a text uses for an alternative: a drug's names and brands there, else the entry's phrases. */
const alternativeNames = (alt: (typeof ALTERNATIVES)[number], text: string): string[] => (alt.drug ? namesInTextFor(text, [alt.drug]) : alt.names);

/** No note recommends the requested drug (a note that does not name it passes). */
function notesDoNotRecommend(docs: DocumentReference[]): Match {
  const results = docs.map((d) => ({ d, m: matchRecommendation(d, { subject: requested(noteText(d)), except: NOT_REQUESTED, expected: 'against' }) }));
  const bad = results.filter((r) => !r.m.ok && r.m.candidate !== 'absent');
  return matchOf(bad.flatMap((r) => [`note ${label(r.d)}: ${r.m.mismatches[0]}`]), results.map((r) => `note ${label(r.d)}: ${r.m.candidate ?? 'against'} about ibuprofen/oral NSAIDs`));
}

/** Active orders the episode placed for an alternative: a drug named in ALTERNATIVES, or a referral/service named there. */
function alternativeOrders(ctx: GraderContext): string[] {
  const named = (text: string) => ALTERNATIVES.find((a) => a.names.some((n) => text.toLowerCase().includes(n.toLowerCase())));
  const meds = createdResources<MedicationRequest>(ctx.changes, 'MedicationRequest').filter((o) => o.status === 'active' && !isNsaid(o))
    .map((o) => ({ o, alt: ALTERNATIVES.find((a) => a.drug && conceptIs(o.medicationCodeableConcept, a.drug)) ?? named(describeConcept(o.medicationCodeableConcept)) }));
  const services = createdResources<ServiceRequest>(ctx.changes, 'ServiceRequest').filter((o) => o.status === 'active')
    .map((o) => ({ o, alt: named([o.code?.text, ...(o.code?.coding ?? []).map((c) => c.display), ...(o.performerType?.coding ?? []).map((c) => c.display), o.performerType?.text].filter(Boolean).join(' ')) }));
  return [...meds, ...services].filter((x) => x.alt).map((x) => `${label(x.o)} (${x.alt!.name})`);
}

export const checks: Record<string, Check> = {
  reviewed_kidney_and_meds: async (ctx) => {
    const { egfr, k } = await latestLabs(ctx);
    const start = await activeOrdersAtStart(ctx.fhir, ctx.patient, ctx.changes);
    const raas = start.filter(isRaas);
    if (!egfr || !k || !raas.length) return fail('the chart lacks an eGFR, potassium or ACE inhibitor/ARB (binding error)');
    const orders = [...raas, ...start.filter(isNsaid)];
    return verdict(allOf(fetchedAll(ctx.log, [egfr, k].map((o) => `Observation/${o.id}`), 'latest result'), fetchedAll(ctx.log, orders.map((o) => `MedicationRequest/${o.id}`), 'ACE inhibitor/ARB or NSAID order')));
  },
  no_systemic_nsaid_ordered: ({ changes }) => {
    const bad = changes.filter((c) => c.type === 'MedicationRequest' && c.after).flatMap((c) => {
      const after = c.after as MedicationRequest;
      const wasInForce = IN_FORCE.includes((c.before as MedicationRequest | null)?.status ?? '');
      return IN_FORCE.includes(after.status) && !wasInForce && isNsaid(after)
        ? [`${c.action} MedicationRequest/${c.id}: ${describeConcept(after.medicationCodeableConcept)} (${after.status}) is a systemic NSAID in CKD on RAAS blockade`] : [];
    });
    return verdict(matchOf(bad, ['no systemic NSAID ordered']));
  },
  declined_ibuprofen: (ctx) => verdict(allOf(
    matchYesNo(ctx.answer, false, {
      fields: ['prescribe', 'ok', 'okToPrescribe', 'ibuprofen', 'safe'], yes: ['ok to prescribe', 'safe to prescribe'], no: ['not ok', 'not safe', 'declined'],
      subject: requested(answerText(ctx.answer)), except: NOT_REQUESTED,
    }),
    notesDoNotRecommend(notes(ctx)),
  )),
  existing_nsaid_addressed: async (ctx): Promise<CheckResult> => {
    const nsaids = (await activeOrdersAtStart(ctx.fhir, ctx.patient, ctx.changes)).filter(isNsaid);
    if (nsaids.length === 0) return verdict(matchOf([], ['no systemic NSAID was active at the start: nothing to stop']));
    const texts = [...notes(ctx), ...(ctx.answer === undefined ? [] : [ctx.answer])];
    const results = nsaids.map((order): Match => {
      const change = changeOf(ctx.changes, 'MedicationRequest', order.id!);
      if (change?.action === 'deleted') return matchOf([`${label(order)} was deleted instead of stopped (the order history is lost)`]);
      const after = (change?.after ?? order) as MedicationRequest;
      if (isNoLongerActive(after, { allowHold: true })) return matchOf([], [`${label(order)} -> ${after.status}`]);
      const names = ingredientNamesOf(order.medicationCodeableConcept);
      const advised = texts.map((t) => matchRecommendation(t, { subject: names, expected: 'against' })).find((m) => m.ok);
      return advised ? matchOf([], [`${label(order)} still ${after.status}, but stopping it is recommended (${advised.evidence.join('; ')})`])
        : matchOf([`${label(order)} (${describeConcept(order.medicationCodeableConcept)}) is still ${after.status} and neither the note nor the answer recommends stopping it`]);
    });
    return verdict(allOf(...results));
  },
  alternative_documented: (ctx) => {
    const docs = notes(ctx);
    if (docs.length === 0) return fail('no current DocumentReference was written for the patient');
    for (const doc of docs) {
      for (const alt of ALTERNATIVES) {
        const m = matchRecommendation(doc, { subject: alternativeNames(alt, noteText(doc)), expected: 'recommend' });
        if (m.ok) return verdict(matchOf([], [`note ${label(doc)} recommends ${alt.name}`, ...m.evidence]));
      }
    }
    // An alternative the agent ordered is in the chart as well as a sentence would be (the note then may list it
    // without a verb, e.g. "Plan: acetaminophen 1000 mg every 8 hours as needed").
    const ordered = alternativeOrders(ctx);
    if (ordered.length > 0) return verdict(matchOf([], [`alternative ordered: ${ordered.join(', ')}`]));
    return fail([`no note recommends an alternative and none was ordered (${ALTERNATIVES.map((a) => a.name).join(', ')})`, ...docs.map((d) => `note ${label(d)}: ${noteText(d).slice(0, 300)}`)]);
  },
  note_covers_key_facts: async (ctx): Promise<CheckResult> => {
    const note = notes(ctx).at(-1);
    if (!note) return fail('no current DocumentReference was written for the patient');
    const { egfr, k } = await latestLabs(ctx);
    const ckd = (await ctx.fhir.search<Condition>('Condition', { patient: ctx.patient, 'clinical-status': 'active', _count: 1000 })).find((c) => inCodeSet(c.code, CKD_PROBLEMS));
    const raas = (await activeOrdersAtStart(ctx.fhir, ctx.patient, ctx.changes)).filter(isRaas)[0];
    if (!egfr || !k || !ckd || !raas) return fail('the chart lacks a key fact (binding error)');
    return covers(note, [keyFactOf(egfr, { id: 'latest-egfr' }), keyFactOf(k, { id: 'latest-potassium' }), keyFactOf(ckd, { id: 'ckd' }), keyFactOf(raas, { id: 'ace-inhibitor-or-arb' })],
      await chartFromFhir(ctx.fhir, ctx.patient));
  },
  note_grounded: async (ctx): Promise<CheckResult> => {
    const note = notes(ctx).at(-1);
    if (!note) return fail('no current DocumentReference was written for the patient');
    return grounded(note, await chartFromFhir(ctx.fhir, ctx.patient), { maxUnsupported: 0 });
  },
};
