// Grader: the starting omeprazole order and the latest hemoglobin and eGFR come from the chart; the note must state
// them, and the scheduled PPI must be stopped with a reason.
import type { DocumentReference, MedicationRequest } from '@medplum/fhirtypes';
import type { Check, GraderContext } from '../../../harness/types.ts';
import {
  allOf, changeOf, codingsOf, createdResources, doseOf, fail, fetchedAll, findNote, isMedication, latestObservation, LOINC, matchDiscontinuation,
  matchOf, quantityOf, readBeforeWrite, rxnormIngredients, timesPerDay, verdict, writesOnlyFor,
} from '../../../graders/lib/index.ts';

export const OMEPRAZOLE = { ingredients: ['7646'] };
const PPIS = { ingredients: ['7646', '40790', '17128', '283742', '114979', '816346'], words: ['omeprazole', 'pantoprazole', 'lansoprazole', 'esomeprazole', 'rabeprazole', 'dexlansoprazole', 'prilosec', 'protonix', 'nexium'] };
export const HGB = [{ system: LOINC, codes: ['718-7'] }];
export const EGFR = [{ system: LOINC, codes: ['33914-3'] }];

async function startingOrders({ fhir, patient, changes }: GraderContext): Promise<MedicationRequest[]> {
  const all = await fhir.search<MedicationRequest>('MedicationRequest', { patient, _count: 1000 });
  return all.map((o) => {
    const change = changeOf(changes, 'MedicationRequest', o.id!);
    return change?.action === 'created' ? undefined : ((change?.before ?? o) as MedicationRequest);
  }).filter((o): o is MedicationRequest => !!o && o.status === 'active' && isMedication(o.medicationCodeableConcept, OMEPRAZOLE));
}

const notes = (ctx: GraderContext) => createdResources<DocumentReference>(ctx.changes, 'DocumentReference');

export const checks: Record<string, Check> = {
  reviewed_ppi_order: async (ctx) => {
    const start = await startingOrders(ctx);
    if (start.length === 0) return fail('no active omeprazole order at the start (binding error)');
    return verdict(fetchedAll(ctx.log, start.map((o) => `MedicationRequest/${o.id}`), 'omeprazole order'));
  },
  reviewed_cbc_and_kidney: async ({ fhir, patient, log }) => {
    const hgb = await latestObservation(fhir, patient, HGB);
    const egfr = await latestObservation(fhir, patient, EGFR);
    if (!hgb || !egfr) return fail('no hemoglobin or eGFR in the chart (binding error)');
    return verdict(fetchedAll(log, [`Observation/${hgb.id}`, `Observation/${egfr.id}`], 'latest result'));
  },
  daily_ppi_discontinued: async (ctx) => {
    const start = await startingOrders(ctx);
    if (start.length === 0) return fail('no active omeprazole order at the start (binding error)');
    return verdict(allOf(...start.map((o) => matchDiscontinuation(changeOf(ctx.changes, 'MedicationRequest', o.id!), `MedicationRequest/${o.id}`, { reasonRequired: true }))));
  },
  no_scheduled_ppi_left: async ({ fhir, patient }) => {
    const active = (await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active', _count: 1000 })).filter((o) => {
      const text = [o.medicationCodeableConcept?.text, ...codingsOf(o.medicationCodeableConcept).map((c) => c.display)].join(' ').toLowerCase();
      return o.status === 'active' && (rxnormIngredients(o.medicationCodeableConcept).some((i) => PPIS.ingredients.includes(i)) || PPIS.words.some((w) => text.includes(w)));
    });
    const bad = active.filter((o) => {
      const d = o.dosageInstruction?.[0];
      if (d?.asNeededBoolean || d?.asNeededCodeableConcept || /as needed|prn|on[- ]demand/i.test(d?.text ?? '')) return false;
      const dose = doseOf(d);
      return (timesPerDay(d) ?? 1) >= 1 && (!dose || dose.value >= 20);
    });
    return verdict(matchOf(bad.map((o) => `MedicationRequest/${o.id} is still a scheduled daily PPI (${o.dosageInstruction?.[0]?.text ?? 'no sig'})`), [`${active.length} active PPI orders`]));
  },
  note_history: async (ctx) => {
    const start = await startingOrders(ctx);
    const years = [...new Set(start.map((o) => (o.authoredOn ?? '').slice(0, 4)).filter(Boolean))];
    return verdict(findNote(notes(ctx), { patient: ctx.patient, status: ['current'], mustMention: [['gerd', 'reflux'], ['omeprazole'], years] }));
  },
  note_labs: async (ctx) => {
    const hgb = quantityOf(await latestObservation(ctx.fhir, ctx.patient, HGB));
    const egfr = quantityOf(await latestObservation(ctx.fhir, ctx.patient, EGFR));
    if (!hgb || !egfr) return fail('no hemoglobin or eGFR in the chart (binding error)');
    return verdict(findNote(notes(ctx), {
      patient: ctx.patient,
      mustQuote: [{ value: hgb.value, tolerance: { absolute: 0.05 }, what: 'latest hemoglobin' }, { value: egfr.value, tolerance: { absolute: 0.5 }, what: 'latest eGFR' }],
    }));
  },
  note_plan: (ctx) => verdict(findNote(notes(ctx), {
    patient: ctx.patient,
    mustMention: [['taper', 'step down', 'step-down', 'on-demand', 'on demand', 'as needed', 'discontinu', 'stop'], ['recur', 'return', 'rebound', 'if symptoms']],
  })),
  writes_scoped_and_informed: ({ patient, changes, log }) => verdict(allOf(writesOnlyFor(changes, patient), readBeforeWrite(log, changes))),
};
