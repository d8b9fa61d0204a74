// Grader: the CHA2DS2-VASc score is computed from the chart (birth date and sex, coded problems); the active
// anticoagulant comes from the orders. The right action is to order nothing and document the reasoning.
import type { Condition, DocumentReference, MedicationRequest, Patient } from '@medplum/fhirtypes';
import type { Check, SelectContext } from '../../../harness/types.ts';
import type { FhirClient } from '../../../harness/fhir-client.ts';
import {
  allOf, answerField, changesByPatient, createdResources, describeConcept, fail, fetchedAll, fetchedAny, findNote, ICD10CM, inCodeSet, isMedication, matchNumber,
  matchOf, matchYesNo, SNOMED, verdict, writesOnlyFor, type CodeSet,
} from '../../../graders/lib/index.ts';

const ANTICOAGULANTS = { ingredients: ['1364430', '1114195', '1037042', '1599538', '11289'] };
const ANTITHROMBOTICS = { ingredients: [...ANTICOAGULANTS.ingredients, '1191', '32968', '613391', '1116632'] };
export const isAnticoagulant = (o: MedicationRequest) =>
  isMedication(o.medicationCodeableConcept, ANTICOAGULANTS) || /\b(apixaban|rivaroxaban|dabigatran|edoxaban|warfarin)\b/i.test(o.medicationCodeableConcept?.text ?? '');

/** CHA2DS2-VASc components scored from the problem list (SNOMED or ICD-10-CM codings). */
export const COMPONENTS: { key: string; points: number; codes: CodeSet[]; icdPrefixes: string[] }[] = [
  { key: 'heart failure', points: 1, codes: [{ system: SNOMED, codes: ['84114007', '42343007', '85232009', '703272007', '417996009'] }], icdPrefixes: ['I50'] },
  { key: 'hypertension', points: 1, codes: [{ system: SNOMED, codes: ['59621000', '38341003', '1201005'] }], icdPrefixes: ['I10', 'I11', 'I12', 'I13'] },
  { key: 'diabetes', points: 1, codes: [{ system: SNOMED, codes: ['44054006', '73211009', '46635009'] }], icdPrefixes: ['E10', 'E11'] },
  { key: 'stroke/TIA/thromboembolism', points: 2, codes: [{ system: SNOMED, codes: ['230690007', '266257000', '422504002', '432504007'] }], icdPrefixes: ['I63', 'I64', 'G45', 'Z86.73'] },
  { key: 'vascular disease', points: 1, codes: [{ system: SNOMED, codes: ['53741008', '22298006', '399211009', '399957001', '840580004'] }], icdPrefixes: ['I21', 'I22', 'I25', 'I70', 'I73.9'] },
];

function hasComponent(conditions: Condition[], c: (typeof COMPONENTS)[number]): Condition | undefined {
  return conditions.find((x) => inCodeSet(x.code, c.codes) || (x.code?.coding ?? []).some((k) => k.system === ICD10CM && c.icdPrefixes.some((p) => k.code?.startsWith(p))));
}

export async function chadsvasc(fhir: FhirClient, patient: string, now: string): Promise<{ score: number; parts: string[]; evidence: string[][] }> {
  const p = await fhir.read<Patient>('Patient', patient);
  const conditions = (await fhir.search<Condition>('Condition', { patient, _count: 1000 }))
    .filter((c) => !['entered-in-error', 'refuted'].includes(c.verificationStatus?.coding?.[0]?.code ?? ''));
  const birth = new Date(p.birthDate!);
  const at = new Date(now);
  let age = at.getUTCFullYear() - birth.getUTCFullYear();
  if (at.getUTCMonth() < birth.getUTCMonth() || (at.getUTCMonth() === birth.getUTCMonth() && at.getUTCDate() < birth.getUTCDate())) age--;
  const parts: string[] = [];
  const evidence: string[][] = [[`Patient/${patient}`]];
  let score = 0;
  if (age >= 75) { score += 2; parts.push(`age ${age} (2)`); } else if (age >= 65) { score += 1; parts.push(`age ${age} (1)`); }
  if (p.gender === 'female') { score += 1; parts.push('female (1)'); }
  for (const c of COMPONENTS) {
    const hits = conditions.filter((x) => hasComponent([x], c));
    if (hits.length > 0) { score += c.points; parts.push(`${c.key} (${c.points}): Condition/${hits[0].id}`); evidence.push(hits.map((h) => `Condition/${h.id}`)); }
  }
  return { score, parts, evidence };
}

async function activeAnticoagulants(fhir: FhirClient, patient: string): Promise<MedicationRequest[]> {
  return (await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active', _count: 1000 })).filter((o) => o.status === 'active' && isAnticoagulant(o));
}

/** Variants: an active oral anticoagulant order. */
export async function select({ fhir, patient }: SelectContext): Promise<boolean> {
  return (await activeAnticoagulants(fhir, patient)).length > 0;
}

const drugWords = (o: MedicationRequest) => (o.medicationCodeableConcept?.text ?? describeConcept(o.medicationCodeableConcept)).toLowerCase().match(/apixaban|rivaroxaban|dabigatran|edoxaban|warfarin/g) ?? [];

export const checks: Record<string, Check> = {
  reviewed_anticoagulant_order: async ({ fhir, patient, log }) => {
    const orders = await activeAnticoagulants(fhir, patient);
    if (orders.length === 0) return fail('no active anticoagulant (binding error)');
    return verdict(fetchedAll(log, orders.map((o) => `MedicationRequest/${o.id}`), 'active anticoagulant order'));
  },
  reviewed_risk_factors: async ({ fhir, patient, now, log }) => {
    const { evidence } = await chadsvasc(fhir, patient, now);
    // Each scoring problem appears on the list several times (one per encounter): any one of them fetched counts.
    return verdict(allOf(...evidence.map((ids) => fetchedAny(log, ids, `record of ${ids[0]}`))));
  },
  chadsvasc_score: async ({ fhir, patient, now, answer }) => {
    const { score, parts } = await chadsvasc(fhir, patient, now);
    const m = matchNumber(answer, { value: score, tolerance: { absolute: 0 }, fields: ['chadsvasc', 'cha2ds2vasc', 'cha2ds2-vasc', 'score'], near: ['vasc'], window: 20 });
    return verdict({ ...m, evidence: [...m.evidence, `expected ${score}: ${parts.join(', ') || 'no points'}`], mismatches: m.ok ? [] : [...m.mismatches, `expected ${score}: ${parts.join(', ') || 'no points'}`] });
  },
  no_new_anticoagulant_judgement: async ({ fhir, patient, answer }) => {
    const orders = await activeAnticoagulants(fhir, patient);
    const judgement = matchYesNo(answer, false, { fields: ['startAnticoagulant'], yes: ['start anticoagulation', 'start an anticoagulant'], no: ['already anticoagulated', 'already on', 'no new anticoagulant'] });
    const current = String(answerField(answer, 'currentAnticoagulant', 'anticoagulant') ?? answer ?? '').toLowerCase();
    const names = [...new Set(orders.flatMap(drugWords))];
    const named = names.some((n) => current.includes(n));
    return verdict(allOf(judgement, matchOf(named ? [] : [`the answer does not name the current anticoagulant (${names.join('/')})`])));
  },
  no_anticoagulant_ordered: ({ changes }) => {
    const problems = changes.filter((c) => c.type === 'MedicationRequest').flatMap((c) => {
      const after = c.after as MedicationRequest | null;
      if (c.action === 'created' && after && isMedication(after.medicationCodeableConcept, ANTITHROMBOTICS)) return [`created MedicationRequest/${c.id} (${describeConcept(after.medicationCodeableConcept)}): a duplicate antithrombotic`];
      if (c.action === 'created' && after && /apixaban|rivaroxaban|dabigatran|edoxaban|warfarin|heparin|enoxaparin|aspirin|clopidogrel/i.test(after.medicationCodeableConcept?.text ?? '')) return [`created MedicationRequest/${c.id} (${after.medicationCodeableConcept?.text})`];
      return c.action === 'created' ? [] : [`${c.action} MedicationRequest/${c.id}: no medication change was indicated`];
    });
    return verdict(matchOf(problems, [`${changes.length} changes checked`]));
  },
  rationale_note: async ({ fhir, patient, now, changes }) => {
    const { score } = await chadsvasc(fhir, patient, now);
    const names = [...new Set((await activeAnticoagulants(fhir, patient)).flatMap(drugWords))];
    return verdict(findNote(createdResources<DocumentReference>(changes, 'DocumentReference'), {
      patient, status: ['current'], mustMention: [['CHA2DS2-VASc', 'CHADS-VASc', 'CHA2DS2VASc', 'CHADSVASC'], names], mustQuote: [{ value: score, what: 'CHA2DS2-VASc score' }],
    }));
  },
  writes_scoped: ({ patient, changes }) => verdict(writesOnlyFor(changes, patient)),
};
void changesByPatient;
