// Drug recognition for graders: which ingredients a medication is, from any of its RxNorm codes (IN, PIN, BN, SCDC,
// SCD, SBD; a combination product gives each ingredient) or, when it carries no code we hold, from the generic, brand
// and shorthand names in its text and coding displays ("Jardiance 10 mg tablet", "EMPAGLIFLOZIN 10MG TAB",
// "lisinopril-hydrochlorothiazide 20-12.5"). The vocabulary is the one the terminology service serves to agents
// (seed/codes/rxnorm), so graders and agents see the same drugs under the same names.
import type { CodeableConcept } from '@medplum/fhirtypes';
import { RXNORM, RXNORM_CONCEPTS, RXNORM_DRUG_NAMES, heldRxcui, rxcuiOfIngredient } from '../../seed/codes/rxnorm.ts';
import { FORMULARY } from '../../seed/codes/formulary.ts';

/** The texts a concept names its drug in: its text, then each coding's display (and a local formulary code, which is
 * the drug's name: seed/codes/formulary.ts). */
function namesOf(concept: CodeableConcept | undefined, text?: string): string[] {
  const codings = (concept?.coding ?? []).flatMap((c) => [c.display, c.system === FORMULARY.system ? c.code : undefined]);
  return [concept?.text, ...codings, text].filter((s): s is string => typeof s === 'string' && s.trim() !== '');
}

/** Ingredient RXCUIs of the RxNorm codings we hold (an IN is its own ingredient; a code outside the current RxNorm tree
 * that charts still carry, such as 1546356 "dabigatran", is read as the concept it stands for), in coding order. */
function codedIngredients(concept: CodeableConcept | undefined): string[] {
  const out: string[] = [];
  for (const coding of concept?.coding ?? []) {
    if (coding.system !== RXNORM.system || !coding.code) continue;
    const held = heldRxcui(coding.code);
    for (const ingredient of held ? RXNORM_CONCEPTS[held].ingredients : []) if (!out.includes(ingredient)) out.push(ingredient);
  }
  return out;
}

/**
 * Canonical (lower-case) ingredient names of a medication: from its held RxNorm codes when it has any (a code is the
 * prescriber's exact statement and wins over free text), otherwise from every drug name in its text, coding displays
 * and `text`. Includes ingredients known by name only (atogepant, apalutamide, ...: UNCODED_INGREDIENTS in
 * seed/codes/rxnorm/brands.ts), which have no RXCUI in our table.
 */
export function drugIngredientNames(concept: CodeableConcept | undefined, text?: string): string[] {
  const coded = codedIngredients(concept);
  if (coded.length > 0) return coded.map((rxcui) => RXNORM_CONCEPTS[rxcui].display.toLowerCase());
  const out: string[] = [];
  for (const name of namesOf(concept, text).flatMap((s) => RXNORM_DRUG_NAMES.find(s))) if (!out.includes(name)) out.push(name);
  return out;
}

/**
 * Ingredient (IN) RXCUIs of a medication: from any of its RxNorm codes we hold; when it has none, from the generic,
 * brand and shorthand names in its text, coding displays and `text` (case-insensitive whole words). [] when unknown.
 */
export function drugIngredients(concept: CodeableConcept | undefined, text?: string): string[] {
  const coded = codedIngredients(concept);
  if (coded.length > 0) return coded;
  return drugIngredientNames(concept, text).map(rxcuiOfIngredient).filter((rxcui): rxcui is string => rxcui !== undefined);
}

/**
 * The ingredient RXCUI a name stands for: a generic ("spironolactone"), salt ("losartan potassium"), single-ingredient
 * brand ("Aldactone") or shorthand ("HCTZ") name, case-insensitive. Undefined for a combination brand, an unknown name
 * or an ingredient known by name only.
 */
export function ingredientByName(name: string): string | undefined {
  // A held name first ("dabigatran" is dabigatran etexilate); else the one drug a longer name mentions ("losartan
  // potassium", "metoprolol succinate ER").
  const ingredients = RXNORM_DRUG_NAMES.exact(name) ?? RXNORM_DRUG_NAMES.find(name);
  return ingredients.length === 1 ? rxcuiOfIngredient(ingredients[0]) : undefined;
}

/** The RxNorm name of a code we hold ("1545653" -> "empagliflozin"; a remapped code gives the name of the concept it
 * is read as: "1546356" -> "dabigatran etexilate"), else undefined. */
export function drugName(rxcui: string): string | undefined {
  const held = heldRxcui(rxcui);
  return held ? RXNORM_CONCEPTS[held].display : undefined;
}
