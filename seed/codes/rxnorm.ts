// RxNorm: the curated drug vocabulary (./rxnorm/) the generator draws from, the terminology service serves and the
// graders read. Term types IN, PIN, MIN, BN, SCDC, SCD, SBD; every concept names its ingredients (has_ingredient
// resolved to IN), PINs their ingredient, SBDs their SCD and brand, SCDs/SBDs their components, with strengths read from
// the normalized names. Sources of every RXCUI are cited in ./rxnorm/{ingredients,brands,products}.ts.
import type { CodeTable } from './types.ts';
import { buildRxNormVocabulary } from './rxnorm/build.ts';

export type { RxNormConcept, RxNormTermType, Strength } from './rxnorm/model.ts';
export { nameTokens, type DrugNameIndex } from './rxnorm/names.ts';
import type { RxNormConcept } from './rxnorm/model.ts';

const vocabulary = buildRxNormVocabulary();

export const RXNORM_CONCEPTS: Readonly<Record<string, RxNormConcept>> = vocabulary.concepts;

/** Drug names (generic, salt, brand, shorthand) -> canonical lower-case ingredient names. */
export const RXNORM_DRUG_NAMES = vocabulary.names;

/** Canonical ingredient name -> IN RXCUI (undefined for ingredients known by name only). */
export function rxcuiOfIngredient(name: string): string | undefined {
  return vocabulary.rxcuiByIngredient.get(name.toLowerCase());
}

export const RXNORM: CodeTable = {
  system: 'http://www.nlm.nih.gov/research/umls/rxnorm',
  title: 'RxNorm',
  concepts: Object.fromEntries(Object.entries(RXNORM_CONCEPTS).map(([code, c]) => [code, c.display])),
};

/** The held concept an RXCUI stands for: itself, or for a code outside the current RxNorm tree that clinical systems
 * still write (1546356 "dabigatran"), the concept it is read as. Undefined when not held. */
export function heldRxcui(rxcui: string): string | undefined {
  if (RXNORM_CONCEPTS[rxcui]) return rxcui;
  return vocabulary.remapped.get(rxcui);
}

/** Ingredient RXCUIs of a concept ([] when unknown). */
export function ingredientsOf(rxcui: string): string[] {
  const held = heldRxcui(rxcui);
  return held ? RXNORM_CONCEPTS[held].ingredients : [];
}
