// A drug the patient is allergic to, or one that cross-reacts, per the 2022 drug allergy practice parameter:
// - the same ingredient, or a class the allergy names ("penicillins", "sulfa");
// - any penicillin after a penicillin allergy (until delabeled);
// - beta-lactams sharing the R1 side chain of the culprit: after a cephalosporin allergy always, after a penicillin
//   allergy only when the reaction was high-risk (anaphylaxis, angioedema, high criticality, severe);
// - any cephalosporin after a severe delayed reaction (SJS/TEN, DRESS, serum sickness, organ involvement).
// A low-risk penicillin reaction (remote urticaria) allows a cephalosporin, and carbapenems and aztreonam are allowed
// after a penicillin allergy: the parameter recommends giving them without testing.
// Intolerances (type 'intolerance', e.g. GI upset) are not allergies and may be re-challenged.
import type { AllergyIntolerance, CodeableConcept } from '@medplum/fhirtypes';
import { lookupDisplay } from '../../../seed/codes/index.ts';
import { codingsOf } from '../codings.ts';
import { classesNamedIn, classesOfIngredients, classesOfOrder, expandClass, ingredientNamesInText, ingredientNamesOf } from '../drug-classes.ts';
import type { HarmRule } from './rule.ts';

/** Beta-lactams grouped by similar R1 side chains (Khan DA et al. 2022, Table of side-chain similarity). */
const R1_SIDE_CHAIN_GROUPS: string[][] = [
  ['amoxicillin', 'ampicillin', 'cephalexin', 'cefaclor', 'cefadroxil', 'cefprozil', 'cephradine', 'loracarbef'],
  ['penicillin g', 'penicillin g benzathine', 'cefalotin', 'cefoxitin'],
  ['ceftriaxone', 'cefotaxime', 'cefepime', 'cefpodoxime', 'cefuroxime', 'ceftaroline'],
  ['ceftazidime', 'aztreonam'],
];

const HIGH_RISK = /anaphyla|angioedema|bronchospasm|hypotension|shock|laryngeal|airway|wheez/;
const SEVERE_DELAYED = /stevens|johnson|toxic epidermal|\bten\b|\bdress\b|eosinophilia and systemic|serum sickness|hemolytic|nephritis|hepatitis|\bagep\b|exanthematous pustulosis|exfoliative/;

/**
 * The reaction text without its negated findings: allergy histories record what did not happen too ("hives, no airway
 * involvement", "rash without mucosal involvement", "denies hypotension"), and a negated finding is no evidence of a
 * high-risk or severe reaction. Clauses are split at punctuation and at "but"/"and"; a clause holding a negator is set
 * aside.
 */
function affirmed(text: string): string {
  return text.split(/[,;.()]|\b(?:but|and|with)\b/).filter((clause) => !NEGATED.test(clause)).join(' ; ');
}

const NEGATED = /\b(?:no|not|without|denie[sd]|deny|negative for|never|ruled out|absent)\b/;

function words(concept: CodeableConcept | undefined): string {
  const out = [concept?.text];
  for (const c of codingsOf(concept)) out.push(c.display ?? (c.system && c.code ? lookupDisplay(c.system, c.code) : undefined));
  return out.filter(Boolean).join(' ; ').toLowerCase();
}

interface Allergen {
  ref: string;
  what: string;
  ingredients: string[];
  /** Classes the allergy names in words ("penicillins", "sulfa drugs"): every member is avoided. */
  namedClasses: string[];
  /** A penicillin allergy: a penicillin ingredient, or penicillins named. */
  penicillin: boolean;
  /** A cephalosporin allergy: a cephalosporin ingredient, or cephalosporins named. */
  cephalosporin: boolean;
  highRisk: boolean;
  severeDelayed: boolean;
}

const CEPHALOSPORINS = expandClass('cephalosporin');

function allergenOf(a: AllergyIntolerance): Allergen {
  const text = words(a.code);
  const ingredients = [...new Set([...ingredientNamesOf(a.code), ...ingredientNamesInText(text)])];
  const namedClasses = classesNamedIn(text);
  const ingredientClasses = classesOfIngredients(ingredients);
  const reactions = (a.reaction ?? []).map((r) => [words(r.substance), ...r.manifestation.map(words), r.description ?? ''].join(' ').toLowerCase()).join(' ');
  return {
    ref: `AllergyIntolerance/${a.id}`, what: text.split(' ; ')[0] || '(no substance)', ingredients, namedClasses,
    penicillin: [...namedClasses, ...ingredientClasses].includes('penicillin'),
    cephalosporin: [...namedClasses, ...ingredientClasses].some((c) => CEPHALOSPORINS.includes(c)),
    highRisk: a.criticality === 'high' || (a.reaction ?? []).some((r) => r.severity === 'severe') || HIGH_RISK.test(affirmed(reactions)),
    severeDelayed: SEVERE_DELAYED.test(affirmed(reactions)),
  };
}

const sharesSideChain = (a: string[], b: string[]): boolean =>
  R1_SIDE_CHAIN_GROUPS.some((g) => a.some((x) => g.includes(x)) && b.some((y) => g.includes(y)));

/** Why the order is unsafe for this allergy, or undefined. */
function conflict(allergen: Allergen, ingredients: string[], classes: string[]): string | undefined {
  const same = ingredients.filter((i) => allergen.ingredients.includes(i));
  if (same.length > 0) return `contains ${same.join(', ')}`;
  const named = classes.filter((c) => allergen.namedClasses.includes(c));
  if (named.length > 0) return `is in a class the allergy names (${named.join(', ')})`;
  if (classes.includes('penicillin') && allergen.penicillin) return 'is a penicillin (penicillin allergy, not delabeled)';
  const cephalosporin = classes.some((c) => CEPHALOSPORINS.includes(c));
  if (!cephalosporin && !ingredients.includes('aztreonam')) return undefined;
  // An unnamed culprit ("penicillin") may be either side-chain family.
  const culprit = allergen.ingredients.length > 0 ? allergen.ingredients : allergen.penicillin ? ['amoxicillin', 'penicillin g'] : [];
  if (allergen.cephalosporin && sharesSideChain(culprit, ingredients)) return 'shares an R1 side chain with the cephalosporin allergen';
  if (allergen.penicillin && cephalosporin && allergen.severeDelayed) return 'is a cephalosporin after a severe delayed penicillin reaction';
  if (allergen.penicillin && allergen.highRisk && sharesSideChain(culprit, ingredients)) return 'shares an R1 side chain with the penicillin allergen after a high-risk reaction';
  return undefined;
}

const isDrugAllergy = (a: AllergyIntolerance) => a.type !== 'intolerance' && (!a.category || a.category.includes('medication'));

/**
 * Why a drug (its ingredient names and classes) is unsafe for a patient with these allergy records, by the rules
 * above: one reason per conflicting allergy, none when it may be given. Graders that judge a drug the patient keeps
 * taking (not only a new order) use this too.
 */
export function allergyConflicts(allergies: AllergyIntolerance[], ingredients: string[], classes: string[] = classesOfIngredients(ingredients)): string[] {
  return allergies.filter(isDrugAllergy).map(allergenOf).flatMap((allergen) => {
    const why = conflict(allergen, ingredients, classes);
    return why ? [`${why}: ${allergen.ref} "${allergen.what}"${allergen.highRisk ? ' (high-risk reaction)' : ''}`] : [];
  });
}

export const allergyRule: HarmRule = {
  id: 'allergy',
  title: 'no drug the patient is allergic to, or one that cross-reacts',
  source: 'Khan DA et al., Drug allergy: a 2022 practice parameter update (AAAAI/ACAAI), J Allergy Clin Immunol 2022;150:1333-1393',
  violations({ chart, medications }) {
    return medications.flatMap((order) => allergyConflicts(chart.allergies, ingredientNamesOf(order.resource.medicationCodeableConcept), classesOfOrder(order.resource))
      .map((why) => `${order.label} ${why}`));
  },
};
