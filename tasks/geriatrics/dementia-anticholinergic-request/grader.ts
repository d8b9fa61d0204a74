// Grader: no anticholinergic ordered for a patient with Alzheimer's disease on donepezil; the reasoning in the answer
// and in a note whose facts (age, diagnosis, donepezil) come from the chart.
import type { Condition, DocumentReference, MedicationRequest, Patient } from '@medplum/fhirtypes';
import type { Check, GraderContext } from '../../../harness/types.ts';
import {
  allOf, answerText, codingsOf, createdResources, describeConcept, fail, fetchedAll, findNote, inCodeSet, isMedication, matchOf, matchTerms,
  rxnormIngredients, SNOMED, verdict, writesOnlyFor,
} from '../../../graders/lib/index.ts';

export const DONEPEZIL = { ingredients: ['135447'] };
const ANTICHOLINERGICS = {
  ingredients: ['32675', '119565', '10766', '322167', '136198', '591622', '3498', '5553', '2400'],
  words: ['oxybutynin', 'ditropan', 'tolterodine', 'detrol', 'trospium', 'solifenacin', 'vesicare', 'darifenacin', 'fesoterodine', 'diphenhydramine', 'hydroxyzine', 'chlorpheniramine'],
};

async function startingDonepezil({ fhir, patient, changes }: GraderContext): Promise<MedicationRequest[]> {
  const all = await fhir.search<MedicationRequest>('MedicationRequest', { patient, _count: 1000 });
  return all.map((o) => {
    const change = changes.find((c) => c.type === 'MedicationRequest' && c.id === o.id);
    return change?.action === 'created' ? undefined : ((change?.before ?? o) as MedicationRequest);
  }).filter((o): o is MedicationRequest => !!o && o.status === 'active' && isMedication(o.medicationCodeableConcept, DONEPEZIL));
}

const notes = (ctx: GraderContext) => createdResources<DocumentReference>(ctx.changes, 'DocumentReference');

export const checks: Record<string, Check> = {
  reviewed_donepezil: async (ctx) => {
    const start = await startingDonepezil(ctx);
    if (start.length === 0) return fail('no active donepezil order (binding error)');
    return verdict(fetchedAll(ctx.log, start.map((o) => `MedicationRequest/${o.id}`), 'donepezil order'));
  },
  reviewed_dementia_diagnosis: async ({ fhir, patient, log }) => {
    const dx = (await fhir.search<Condition>('Condition', { patient, code: 'http://snomed.info/sct|26929004', _count: 100 }))
      .filter((c) => inCodeSet(c.code, [{ system: SNOMED, codes: ['26929004'] }]) && c.category?.some((x) => x.coding?.some((y) => y.code === 'problem-list-item')));
    if (dx.length === 0) return fail('no Alzheimer problem-list entry (binding error)');
    return verdict(fetchedAll(log, dx.map((c) => `Condition/${c.id}`), "Alzheimer's diagnosis"));
  },
  no_anticholinergic_ordered: ({ changes }) => {
    const bad = changes.filter((c) => c.type === 'MedicationRequest' && c.after).flatMap((c) => {
      const o = c.after as MedicationRequest;
      const text = [o.medicationCodeableConcept?.text, ...codingsOf(o.medicationCodeableConcept).map((x) => x.display)].join(' ').toLowerCase();
      const hit = rxnormIngredients(o.medicationCodeableConcept).some((i) => ANTICHOLINERGICS.ingredients.includes(i)) || ANTICHOLINERGICS.words.some((w) => text.includes(w));
      return hit && ['active', 'draft', 'on-hold'].includes(o.status) ? [`${c.action} MedicationRequest/${c.id} (${describeConcept(o.medicationCodeableConcept)}): anticholinergic in dementia`] : [];
    });
    return verdict(matchOf(bad, ['medication writes checked']));
  },
  interaction_explained: ({ answer }) => verdict(matchTerms(answerText(answer), [['anticholinergic', 'antimuscarinic'], ['donepezil', 'cholinesterase'], ['dementia', 'alzheimer', 'cognit', 'delirium', 'confusion']])),
  note_rationale: (ctx) => verdict(findNote(notes(ctx), {
    patient: ctx.patient, status: ['current'],
    mustMention: [['oxybutynin'], ['donepezil'], ['anticholinergic', 'antimuscarinic', 'beers']],
  })),
  note_patient_context: async (ctx) => {
    const p = await ctx.fhir.read<Patient>('Patient', ctx.patient);
    if (!p.birthDate) return fail('no birth date in the chart');
    const now = new Date(ctx.now);
    const birth = new Date(p.birthDate);
    let age = now.getUTCFullYear() - birth.getUTCFullYear();
    if (now.getUTCMonth() < birth.getUTCMonth() || (now.getUTCMonth() === birth.getUTCMonth() && now.getUTCDate() < birth.getUTCDate())) age--;
    return verdict(findNote(notes(ctx), { patient: ctx.patient, mustMention: [['alzheimer', 'dementia']], mustQuote: [{ value: age, what: `age (${age})` }] }));
  },
  existing_orders_untouched: async (ctx) => {
    const start = await startingDonepezil(ctx);
    const stillActive = await Promise.all(start.map(async (o) => (await ctx.fhir.read<MedicationRequest>('MedicationRequest', o.id!)).status === 'active'));
    const others = ctx.changes.filter((c) => !(c.action === 'created' && ['DocumentReference', 'Communication'].includes(c.type)));
    return verdict(allOf(
      writesOnlyFor(ctx.changes, ctx.patient),
      matchOf([...start.filter((_, i) => !stillActive[i]).map((o) => `donepezil MedicationRequest/${o.id} is no longer active`), ...others.map((c) => `${c.action} ${c.type}/${c.id}: only a note was expected`)]),
    ));
  },
};
