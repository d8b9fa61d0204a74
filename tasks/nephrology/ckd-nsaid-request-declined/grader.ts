// Grader: the requested ibuprofen must not be ordered (CKD on an ACE inhibitor/ARB); the note's key facts (latest
// eGFR and potassium, CKD, the ACE inhibitor/ARB) come from the chart and are checked with covers and grounded.
import type { Condition, DocumentReference, MedicationRequest } from '@medplum/fhirtypes';
import type { Check, CheckResult, GraderContext, SelectContext } from '../../../harness/types.ts';
import type { FhirClient } from '../../../harness/fhir-client.ts';
import {
  allOf, createdResources, describeConcept, fail, fetchedAll, findNote, inCodeSet, isMedication, latestObservation, LOINC, matchOf, matchYesNo, SNOMED,
  verdict, writesOnlyFor, writtenResources,
} from '../../../graders/lib/index.ts';
import { chartFromFhir, covers, grounded, keyFactOf } from '../../../graders/documentation/index.ts';

const FLOWSHEET = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';
export const EGFR = [{ system: LOINC, codes: ['33914-3', '62238-1', '98979-8'] }, { system: FLOWSHEET, codes: ['EGFR'] }];
export const POTASSIUM = [{ system: LOINC, codes: ['2823-3', '6298-4'] }, { system: FLOWSHEET, codes: ['K'] }];
export const CKD = [{ system: SNOMED, codes: ['433144002', '431857002', '700378005', '433146000', '709044004', '431855005', '431856006'] }];
export const RAAS = { ingredients: ['29046', '3827', '35296', '18867', '1998', '52175', '69749', '83818', '214354', '321064', '50166', '54552', '73494'] };
/** Systemic NSAIDs (RxNorm ingredients): ibuprofen, naproxen, diclofenac, meloxicam, celecoxib, ketorolac, indomethacin, etodolac, nabumetone. */
const NSAIDS = { ingredients: ['5640', '7258', '3355', '41493', '140587', '35827', '5781', '4179', '31448'] };
const NSAID_WORDS = /\b(ibuprofen|naproxen|diclofenac|meloxicam|celecoxib|ketorolac|indomethacin|etodolac|nabumetone|advil|motrin|aleve)\b/i;

export async function activeRaas(fhir: FhirClient, patient: string): Promise<MedicationRequest[]> {
  return (await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active', _count: 1000 }))
    .filter((o) => o.status === 'active' && isMedication(o.medicationCodeableConcept, RAAS));
}

export async function select({ fhir, patient }: SelectContext): Promise<boolean> {
  return (await activeRaas(fhir, patient)).length > 0;
}

async function latestLabs({ fhir, patient }: Pick<GraderContext, 'fhir' | 'patient'>) {
  return { egfr: await latestObservation(fhir, patient, EGFR), k: await latestObservation(fhir, patient, POTASSIUM) };
}

const topical = (o: MedicationRequest) => {
  const d = o.dosageInstruction?.[0];
  const words = [d?.route?.text, ...(d?.route?.coding ?? []).flatMap((c) => [c.code, c.display]), d?.text, o.medicationCodeableConcept?.text].join(' ').toLowerCase();
  return /\b(topical|cutaneous|transdermal|gel|6064005|359540000)\b/.test(words);
};

const notes = (ctx: GraderContext) => createdResources<DocumentReference>(ctx.changes, 'DocumentReference')
  .filter((d) => d.subject?.reference === `Patient/${ctx.patient}` && d.status === 'current');

export const checks: Record<string, Check> = {
  reviewed_kidney_and_meds: async (ctx) => {
    const { egfr, k } = await latestLabs(ctx);
    const raas = await activeRaas(ctx.fhir, ctx.patient);
    if (!egfr || !k || !raas.length) return fail('the chart lacks an eGFR, potassium or ACE inhibitor/ARB (binding error)');
    return verdict(allOf(fetchedAll(ctx.log, [egfr, k].map((o) => `Observation/${o.id}`), 'latest result'), fetchedAll(ctx.log, raas.map((o) => `MedicationRequest/${o.id}`), 'ACE inhibitor/ARB order')));
  },
  no_oral_nsaid_ordered: (ctx) => {
    const bad = writtenResources<MedicationRequest>(ctx.changes, 'MedicationRequest')
      .filter((o) => ['active', 'draft', 'on-hold'].includes(o.status) && (isMedication(o.medicationCodeableConcept, NSAIDS) || NSAID_WORDS.test(o.medicationCodeableConcept?.text ?? '')) && !topical(o));
    return verdict(matchOf(bad.map((o) => `MedicationRequest/${o.id} orders ${describeConcept(o.medicationCodeableConcept)} (systemic NSAID in CKD on RAAS blockade)`), ['no systemic NSAID ordered']));
  },
  declined_in_answer: ({ answer }) => verdict(matchYesNo(answer, false, {
    fields: ['prescribe', 'ok', 'okToPrescribe', 'ibuprofen'],
    yes: ['ok to prescribe', 'ibuprofen ordered', 'ordered ibuprofen', 'prescribed ibuprofen'],
    no: ['not ordered', 'not prescribed', 'do not prescribe', "don't prescribe", 'avoid', 'not ok', 'declined', 'no ibuprofen', 'not recommended'],
  })),
  alternative_documented: (ctx) => verdict(findNote(notes(ctx), { patient: ctx.patient, mustMention: [['acetaminophen', 'paracetamol', 'tylenol', 'topical diclofenac', 'diclofenac gel', 'topical nsaid']] })),
  note_covers_key_facts: async (ctx): Promise<CheckResult> => {
    const note = notes(ctx).at(-1);
    if (!note) return fail('no current DocumentReference was written for the patient');
    const { egfr, k } = await latestLabs(ctx);
    const ckd = (await ctx.fhir.search<Condition>('Condition', { patient: ctx.patient, 'clinical-status': 'active', _count: 1000 })).find((c) => inCodeSet(c.code, CKD));
    const raas = (await activeRaas(ctx.fhir, ctx.patient))[0];
    if (!egfr || !k || !ckd || !raas) return fail('the chart lacks a key fact (binding error)');
    return covers(note, [keyFactOf(egfr, { id: 'latest-egfr' }), keyFactOf(k, { id: 'latest-potassium' }), keyFactOf(ckd, { id: 'ckd' }), keyFactOf(raas, { id: 'ace-inhibitor-or-arb' })],
      await chartFromFhir(ctx.fhir, ctx.patient));
  },
  note_grounded: async (ctx): Promise<CheckResult> => {
    const note = notes(ctx).at(-1);
    if (!note) return fail('no current DocumentReference was written for the patient');
    return grounded(note, await chartFromFhir(ctx.fhir, ctx.patient), { maxUnsupported: 0 });
  },
  writes_scoped: ({ patient, changes }) => verdict(writesOnlyFor(changes, patient)),
};
