// Grader: the active tiotropium order and the latest spirometry come from the chart; no second LAMA, a note that
// explains the duplication and quotes the spirometry.
import type { DocumentReference, MedicationRequest, Procedure } from '@medplum/fhirtypes';
import type { Check, GraderContext } from '../../../harness/types.ts';
import {
  allOf, answerText, codingsOf, createdResources, describeConcept, fail, fetchedAll, findNote, isMedication, matchOf, matchTerms, rxnormIngredients,
  verdict, writesOnlyFor,
} from '../../../graders/lib/index.ts';

export const TIOTROPIUM = { ingredients: ['69120'] };
const LAMAS = { ingredients: ['69120', '1487518', '1360393', '4892'], words: ['tiotropium', 'spiriva', 'umeclidinium', 'incruse', 'aclidinium', 'tudorza', 'glycopyrr', 'anoro', 'stiolto', 'trelegy', 'breztri'] };

/** The active tiotropium orders at the start (not created by the episode). */
async function startingTiotropium({ fhir, patient, changes }: GraderContext): Promise<MedicationRequest[]> {
  const all = await fhir.search<MedicationRequest>('MedicationRequest', { patient, _count: 1000 });
  return all.map((o) => {
    const change = changes.find((c) => c.type === 'MedicationRequest' && c.id === o.id);
    return change?.action === 'created' ? undefined : ((change?.before ?? o) as MedicationRequest);
  }).filter((o): o is MedicationRequest => !!o && o.status === 'active' && isMedication(o.medicationCodeableConcept, TIOTROPIUM));
}

/** FEV1 % predicted and FEV1/FVC of the latest spirometry (its note text, as the chart records it). */
export function spirometryValues(p: Procedure): { fev1?: number; ratio?: number } {
  const text = (p.note ?? []).map((n) => n.text).join(' ');
  const ratio = /FEV1\/FVC\s*([0-9.]+)/i.exec(text);
  const fev1 = /FEV1\s*([0-9]+)%\s*predicted/i.exec(text);
  return { ...(fev1 ? { fev1: Number(fev1[1]) } : {}), ...(ratio ? { ratio: Number(ratio[1]) } : {}) };
}

export async function latestSpirometry(fhir: GraderContext['fhir'], patient: string): Promise<Procedure | undefined> {
  const all = await fhir.search<Procedure>('Procedure', { patient, code: 'http://snomed.info/sct|127783003', _count: 1000 });
  return all.filter((p) => p.status === 'completed' && spirometryValues(p).ratio !== undefined)
    .sort((a, b) => Date.parse(b.performedDateTime ?? '') - Date.parse(a.performedDateTime ?? ''))[0];
}

function notes(ctx: GraderContext): DocumentReference[] {
  return createdResources<DocumentReference>(ctx.changes, 'DocumentReference');
}

export const checks: Record<string, Check> = {
  reviewed_active_inhalers: async (ctx) => {
    const start = await startingTiotropium(ctx);
    if (start.length === 0) return fail('no active tiotropium order at the start (binding error)');
    return verdict(fetchedAll(ctx.log, start.map((o) => `MedicationRequest/${o.id}`), 'active tiotropium order'));
  },
  reviewed_spirometry: async ({ fhir, patient, log }) => {
    const p = await latestSpirometry(fhir, patient);
    if (!p) return fail('no spirometry with FEV1/FVC in the chart (binding error)');
    return verdict(fetchedAll(log, [`Procedure/${p.id}`], 'latest spirometry'));
  },
  duplicate_recognized: ({ answer }) => verdict(matchTerms(answerText(answer), [['tiotropium', 'spiriva', 'lama'], ['already', 'duplicate', 'existing', 'active order', 'currently on', 'current order']])),
  no_second_lama: ({ changes }) => {
    const bad = changes.filter((c) => c.type === 'MedicationRequest' && c.after).flatMap((c) => {
      const o = c.after as MedicationRequest;
      const wasActive = (c.before as MedicationRequest | null)?.status === 'active';
      const text = [o.medicationCodeableConcept?.text, ...codingsOf(o.medicationCodeableConcept).map((x) => x.display)].join(' ').toLowerCase();
      const isLama = rxnormIngredients(o.medicationCodeableConcept).some((i) => LAMAS.ingredients.includes(i)) || LAMAS.words.some((w) => text.includes(w));
      return isLama && !wasActive && ['active', 'draft', 'on-hold'].includes(o.status) ? [`${c.action} MedicationRequest/${c.id} (${describeConcept(o.medicationCodeableConcept)}): a second LAMA`] : [];
    });
    return verdict(matchOf(bad, ['medication writes checked']));
  },
  consult_note_rationale: async (ctx) => {
    const start = await startingTiotropium(ctx);
    const years = [...new Set(start.map((o) => (o.authoredOn ?? '').slice(0, 4)).filter(Boolean))];
    return verdict(findNote(notes(ctx), {
      patient: ctx.patient, status: ['current'],
      mustMention: [['tiotropium', 'spiriva'], ['already', 'duplicat', 'existing', 'active order', 'currently prescribed', 'currently on'], years],
    }));
  },
  consult_note_spirometry: async (ctx) => {
    const p = await latestSpirometry(ctx.fhir, ctx.patient);
    if (!p) return fail('no spirometry with FEV1/FVC in the chart (binding error)');
    const { fev1, ratio } = spirometryValues(p);
    return verdict(findNote(notes(ctx), {
      patient: ctx.patient,
      mustQuote: [...(fev1 !== undefined ? [{ value: fev1, what: 'FEV1 % predicted' }] : []), { value: ratio!, tolerance: { absolute: 0.005 }, what: 'FEV1/FVC ratio' }],
    }));
  },
  writes_scoped: ({ patient, changes }) => {
    const others = changes.filter((c) => !(c.action === 'created' && ['DocumentReference', 'Communication'].includes(c.type)));
    return verdict(allOf(writesOnlyFor(changes, patient), matchOf(others.map((c) => `${c.action} ${c.type}/${c.id}: only a note was expected`))));
  },
};
