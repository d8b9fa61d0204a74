// Grader: the starting fluticasone-only order and the latest spirometry come from the chart; a single-inhaler
// ICS-LABA must be ordered, the ICS-only order retired, no LABA alone and a reliever kept (GINA 2024).
import type { CodeableConcept, DocumentReference, MedicationRequest, Patient, Procedure } from '@medplum/fhirtypes';
import type { Check, GraderContext, SelectContext } from '../../../harness/types.ts';
import {
  allOf, answerText, codingsOf, createdResources, describeConcept, fail, fetchedAll, findNote, isMedication, matchDiscontinuation, matchOf, matchTerms,
  readBeforeWrite, rxnormIngredients, verdict, writesOnlyFor,
} from '../../../graders/lib/index.ts';

export const FLUTICASONE = { ingredients: ['41126'] };
export const ALBUTEROL = { ingredients: ['435'] };

// RxNorm ingredient RXCUIs (IN) and the names (generic and brand) that identify them in text when uncoded.
const ICS: Record<string, string[]> = {
  '19831': ['budesonide', 'symbicort', 'breyna', 'pulmicort'],
  '41126': ['fluticasone', 'advair', 'wixela', 'airduo', 'breo', 'flovent', 'arnuity', 'trelegy'],
  '108118': ['mometasone', 'dulera', 'asmanex'],
  '1347': ['beclomethasone', 'qvar'],
};
const LABA: Record<string, string[]> = {
  '25255': ['formoterol', 'symbicort', 'breyna', 'dulera', 'perforomist'],
  '36117': ['salmeterol', 'advair', 'wixela', 'airduo', 'serevent'],
  '1424884': ['vilanterol', 'breo', 'trelegy'],
};

/** Ingredient RXCUIs of a medication concept: its RxNorm codings, else the ingredient or brand names in its text. */
export function inhalerIngredients(concept: CodeableConcept | undefined): { ics: string[]; laba: string[] } {
  const codes = rxnormIngredients(concept);
  const text = [concept?.text, ...codingsOf(concept).map((c) => c.display)].filter(Boolean).join(' ').toLowerCase();
  const pick = (table: Record<string, string[]>) => Object.entries(table).filter(([code, names]) => codes.includes(code) || names.some((n) => text.includes(n))).map(([code]) => code);
  return { ics: pick(ICS), laba: pick(LABA) };
}

const isIcsLaba = (o: MedicationRequest) => { const i = inhalerIngredients(o.medicationCodeableConcept); return i.ics.length > 0 && i.laba.length > 0; };
const isLabaOnly = (o: MedicationRequest) => { const i = inhalerIngredients(o.medicationCodeableConcept); return i.laba.length > 0 && i.ics.length === 0; };
const activeOrder = (o: MedicationRequest) => o.status === 'active' && (!o.intent || ['order', 'original-order', 'instance-order'].includes(o.intent));

export async function select({ fhir, patient, now }: SelectContext): Promise<boolean> {
  const p = await fhir.read<Patient>('Patient', patient);
  if (!p.birthDate || p.deceasedBoolean || p.deceasedDateTime) return false;
  return (Date.parse(now) - Date.parse(p.birthDate)) / (365.25 * 86_400_000) >= 12;
}

/** The active fluticasone-only orders at the start (as they were before the episode). */
export async function startingFluticasone({ fhir, patient, changes }: Pick<GraderContext, 'fhir' | 'patient' | 'changes'>): Promise<MedicationRequest[]> {
  const all = await fhir.search<MedicationRequest>('MedicationRequest', { patient, _count: 1000 });
  return all.map((o) => {
    const change = changes.find((c) => c.type === 'MedicationRequest' && c.id === o.id);
    return change?.action === 'created' ? undefined : ((change?.before ?? o) as MedicationRequest);
  }).filter((o): o is MedicationRequest => !!o && o.status === 'active' && isMedication(o.medicationCodeableConcept, FLUTICASONE) && !isIcsLaba(o));
}

/** FEV1 % predicted from a spirometry note ("FEV1 70% predicted, ..."). */
export function fev1Of(p: Procedure): number | undefined {
  const m = /FEV1\s*([0-9]+(?:\.[0-9]+)?)\s*%\s*predicted/i.exec((p.note ?? []).map((n) => n.text).join(' '));
  return m ? Number(m[1]) : undefined;
}

export async function latestSpirometry(fhir: GraderContext['fhir'], patient: string): Promise<Procedure | undefined> {
  const all = await fhir.search<Procedure>('Procedure', { patient, code: 'http://snomed.info/sct|127783003', _count: 1000 });
  return all.filter((p) => p.status === 'completed' && fev1Of(p) !== undefined)
    .sort((a, b) => Date.parse(b.performedDateTime ?? '') - Date.parse(a.performedDateTime ?? ''))[0];
}

/** New or changed orders that are now an active ICS-LABA (and were not one before). */
function newIcsLaba(changes: GraderContext['changes']): MedicationRequest[] {
  return changes.filter((c) => c.type === 'MedicationRequest' && c.after && (c.action === 'created' || c.action === 'updated'))
    .filter((c) => !(c.before && isIcsLaba(c.before as MedicationRequest) && (c.before as MedicationRequest).status === 'active'))
    .map((c) => c.after as MedicationRequest).filter((o) => activeOrder(o) && isIcsLaba(o));
}

export const checks: Record<string, Check> = {
  reviewed_controller: async (ctx) => {
    const start = await startingFluticasone(ctx);
    if (start.length === 0) return fail('no active fluticasone-only order at the start (binding error)');
    return verdict(fetchedAll(ctx.log, start.map((o) => `MedicationRequest/${o.id}`), 'active fluticasone order'));
  },
  reviewed_spirometry: async ({ fhir, patient, log }) => {
    const p = await latestSpirometry(fhir, patient);
    if (!p) return fail('no spirometry with FEV1 in the chart (binding error)');
    return verdict(fetchedAll(log, [`Procedure/${p.id}`], 'latest spirometry'));
  },
  step_up_reasoning: ({ answer }) => verdict(matchTerms(answerText(answer), [
    ['formoterol', 'salmeterol', 'vilanterol', 'ics-laba', 'ics/laba', 'laba', 'symbicort', 'advair', 'dulera', 'breo', 'wixela'],
    ['step up', 'step-up', 'stepped up', 'uncontrolled', 'not well controlled', 'poorly controlled', 'not controlled', 'step 4', 'step 3'],
  ])),
  ics_laba_ordered: ({ changes, patient }) => {
    const orders = newIcsLaba(changes).filter((o) => o.subject?.reference === `Patient/${patient}`);
    const written = changes.filter((c) => c.type === 'MedicationRequest' && c.after).map((c) => c.after as MedicationRequest);
    return verdict(matchOf(
      orders.length > 0 ? [] : [`no active ICS-LABA order for Patient/${patient}; medication orders written: ${written.map((o) => `MedicationRequest/${o.id} ${describeConcept(o.medicationCodeableConcept)} (${o.status})`).join('; ') || 'none'}`],
      orders.map((o) => `MedicationRequest/${o.id}: ${describeConcept(o.medicationCodeableConcept)}, ICS ${inhalerIngredients(o.medicationCodeableConcept).ics.join('+')}, LABA ${inhalerIngredients(o.medicationCodeableConcept).laba.join('+')}`),
    ));
  },
  ics_monotherapy_replaced: async (ctx) => {
    const start = await startingFluticasone(ctx);
    if (start.length === 0) return fail('no active fluticasone-only order at the start (binding error)');
    return verdict(allOf(...start.map((o) => {
      const change = ctx.changes.find((c) => c.type === 'MedicationRequest' && c.id === o.id);
      const after = change?.after as MedicationRequest | undefined;
      if (after && activeOrder(after) && isIcsLaba(after)) return matchOf([], [`MedicationRequest/${o.id} changed in place into ${describeConcept(after.medicationCodeableConcept)}`]);
      return matchDiscontinuation(change, `MedicationRequest/${o.id}`, { statuses: ['stopped', 'cancelled', 'completed'], reasonRequired: true });
    })));
  },
  no_laba_alone_reliever_kept: async ({ fhir, patient }) => {
    const active = (await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active', _count: 1000 })).filter(activeOrder);
    const labaOnly = active.filter(isLabaOnly);
    const relievers = active.filter((o) => isMedication(o.medicationCodeableConcept, ALBUTEROL) || /albuterol|salbutamol|levalbuterol/i.test(o.medicationCodeableConcept?.text ?? '')
      || (isIcsLaba(o) && inhalerIngredients(o.medicationCodeableConcept).laba.includes('25255')));
    return verdict(matchOf([
      ...labaOnly.map((o) => `active LABA without an inhaled corticosteroid: MedicationRequest/${o.id} ${describeConcept(o.medicationCodeableConcept)}`),
      ...(relievers.length === 0 ? ['no active reliever at the end (albuterol or ICS-formoterol)'] : []),
    ], [`reliever(s): ${relievers.map((o) => `MedicationRequest/${o.id} ${describeConcept(o.medicationCodeableConcept)}`).join('; ')}`]));
  },
  consult_note: async ({ fhir, patient, changes }) => {
    const p = await latestSpirometry(fhir, patient);
    if (!p) return fail('no spirometry with FEV1 in the chart (binding error)');
    return verdict(findNote(createdResources<DocumentReference>(changes, 'DocumentReference'), {
      patient, status: ['current'],
      mustMention: [['fluticasone'], ['formoterol', 'salmeterol', 'vilanterol'], ['review', 'reassess', 'follow-up', 'follow up', 'recheck', 'return']],
      mustQuote: [{ value: fev1Of(p)!, what: 'FEV1 % predicted' }],
    }));
  },
  writes_scoped: ({ patient, changes, log }) => verdict(allOf(writesOnlyFor(changes, patient), readBeforeWrite(log, changes))),
};
