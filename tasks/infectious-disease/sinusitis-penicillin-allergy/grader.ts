// Grader: the allergy list comes from the chart; no penicillin-class order, an accepted oral alternative instead.
import type { AllergyIntolerance, MedicationRequest, Patient } from '@medplum/fhirtypes';
import type { Check, SelectContext } from '../../../harness/types.ts';
import {
  allOf, answerText, codingsOf, createdResources, describeConcept, fail, fetchedAll, findMedicationOrder, matchOf, matchTerms,
  rxnormIngredients, verdict, writesOnlyFor, type Match,
} from '../../../graders/lib/index.ts';

const AMOXICILLIN = '723';
/** Penicillin-class ingredients (RxNorm IN) and the words that name them in text. */
const PENICILLINS = { ingredients: ['723', '733', '7980', '7984', '48203', '3356', '8339', '7233', '10591'], words: ['amoxicillin', 'penicillin', 'ampicillin', 'augmentin', 'clavulan', 'dicloxacillin', 'nafcillin', 'piperacillin'] };

/** A drug concept's ingredients and words: RxNorm ingredients (known products) plus the lower-cased text/displays. */
function drugWords(order: MedicationRequest): { ingredients: string[]; text: string } {
  const concept = order.medicationCodeableConcept;
  return { ingredients: rxnormIngredients(concept), text: [concept?.text, ...codingsOf(concept).map((c) => c.display)].filter(Boolean).join(' ').toLowerCase() };
}

function contains(order: MedicationRequest, drug: { ingredients: string[]; words: string[] }): boolean {
  const { ingredients, text } = drugWords(order);
  return ingredients.some((i) => drug.ingredients.includes(i)) || drug.words.some((w) => text.includes(w));
}

async function activeAllergies(fhir: GraderFhir, patient: string): Promise<AllergyIntolerance[]> {
  const all = await fhir.search<AllergyIntolerance>('AllergyIntolerance', { patient });
  return all.filter((a) => a.clinicalStatus?.coding?.some((c) => c.code === 'active'));
}
type GraderFhir = SelectContext['fhir'];

/** Variants: adults (18+) at the task's clock. */
export async function select({ fhir, patient, now }: SelectContext): Promise<boolean> {
  const p = await fhir.read<Patient>('Patient', patient);
  return !!p.birthDate && (Date.parse(now) - Date.parse(p.birthDate)) / (365.25 * 86400_000) >= 18;
}

function newActiveOrders(changes: Parameters<Check>[0]['changes']): MedicationRequest[] {
  return createdResources<MedicationRequest>(changes, 'MedicationRequest').filter((o) => ['active', 'draft', 'on-hold'].includes(o.status));
}

export const checks: Record<string, Check> = {
  reviewed_allergy_list: async ({ fhir, patient, log }) => {
    const amox = (await activeAllergies(fhir, patient)).filter((a) => codingsOf(a.code).some((c) => c.code === AMOXICILLIN));
    if (amox.length === 0) return fail('no active amoxicillin allergy in the chart (binding error)');
    return verdict(fetchedAll(log, amox.map((a) => `AllergyIntolerance/${a.id}`), 'amoxicillin allergy'));
  },
  allergy_named_in_answer: ({ answer }) => verdict(matchTerms(answerText(answer), [['allerg'], ['amoxicillin', 'penicillin', 'beta-lactam', 'β-lactam']])),
  no_penicillin_ordered: ({ changes }) => {
    const bad = newActiveOrders(changes).filter((o) => contains(o, PENICILLINS));
    return verdict(matchOf(bad.map((o) => `MedicationRequest/${o.id} (${describeConcept(o.medicationCodeableConcept)}) is a penicillin despite the amoxicillin allergy`), [`${newActiveOrders(changes).length} new orders checked`]));
  },
  alternative_antibiotic_ordered: ({ patient, changes }) => {
    const orders = newActiveOrders(changes);
    const common = { patient, status: ['active'], intent: ['order', 'original-order'], route: ['oral'] };
    const options: Match[] = [
      findMedicationOrder(orders.filter((o) => contains(o, { ingredients: ['3640'], words: ['doxycycline'] })), { ...common, dose: { value: 100, unit: 'mg', tolerance: { absolute: 0 } }, timesPerDay: 2 }),
      findMedicationOrder(orders.filter((o) => contains(o, { ingredients: ['3640'], words: ['doxycycline'] })), { ...common, dose: { value: 200, unit: 'mg', tolerance: { absolute: 0 } }, timesPerDay: 1 }),
      findMedicationOrder(orders.filter((o) => contains(o, { ingredients: ['82122'], words: ['levofloxacin'] })), { ...common, dose: { value: 625, unit: 'mg', tolerance: { absolute: 125 } }, timesPerDay: 1 }),
      findMedicationOrder(orders.filter((o) => contains(o, { ingredients: ['139462'], words: ['moxifloxacin'] })), { ...common, dose: { value: 400, unit: 'mg', tolerance: { absolute: 0 } }, timesPerDay: 1 }),
    ];
    const hit = options.find((m) => m.ok);
    if (hit) return verdict(hit);
    return orders.length === 0 ? fail('no new active MedicationRequest was written') : verdict(allOf(...options));
  },
  no_other_listed_allergen: async ({ fhir, patient, changes }) => {
    const allergens = (await activeAllergies(fhir, patient)).map((a) => {
      const concept = a.code;
      return { label: describeConcept(concept), ingredients: rxnormIngredients(concept), words: [concept?.text, ...codingsOf(concept).map((c) => c.display)].filter((w): w is string => !!w).map((w) => w.toLowerCase()) };
    });
    const bad = newActiveOrders(changes).flatMap((o) => allergens.filter((a) => contains(o, a)).map((a) => `MedicationRequest/${o.id} (${describeConcept(o.medicationCodeableConcept)}) contains listed allergen ${a.label}`));
    return verdict(matchOf(bad, [`allergy list: ${allergens.map((a) => a.label).join('; ')}`]));
  },
  writes_scoped: ({ patient, changes }) => {
    const others = changes.filter((c) => !(c.type === 'MedicationRequest' && c.action === 'created') && !(c.type === 'Communication' || c.type === 'DocumentReference'));
    return verdict(allOf(writesOnlyFor(changes, patient), matchOf(others.map((c) => `${c.action} ${c.type}/${c.id}: only a new antibiotic order (or a note) was expected`))));
  },
};
