// Builds the RxNorm table from the curated rows: ingredients and their forms, brands, then products whose ingredients,
// strengths, generic and brand are read from their normalized names. Every relation is checked here, so a product
// whose name does not resolve to held ingredients, or a name that stands for two different drugs, stops the import
// (a wrong table must not silently grade agents).
import { BRAND_CONCEPTS, BRAND_NAMES, UNCODED_INGREDIENTS } from './brands.ts';
import { INGREDIENTS, MULTIPLE_INGREDIENTS, PRECISE_INGREDIENTS, REMAPPED } from './ingredients.ts';
import { brandOfName, componentsOfName, genericOfName, type RxNormConcept, type RxNormTermType, type Strength } from './model.ts';
import { DrugNameIndex } from './names.ts';
import { BRANDED_DRUGS, CLINICAL_DRUGS, COMPONENTS, type ProductRow } from './products.ts';

export interface RxNormVocabulary {
  concepts: Record<string, RxNormConcept>;
  /** Generic, salt, brand and shorthand names -> canonical (lower-case) ingredient names. */
  names: DrugNameIndex;
  /** Canonical ingredient name -> IN RXCUI; ingredients known by name only (UNCODED_INGREDIENTS) are absent. */
  rxcuiByIngredient: ReadonlyMap<string, string>;
  /** RXCUIs outside the current tree that stand for a held concept (./ingredients.ts REMAPPED) -> that concept. */
  remapped: ReadonlyMap<string, string>;
}

export function buildRxNormVocabulary(): RxNormVocabulary {
  const concepts: Record<string, RxNormConcept> = {};
  const put = (code: string, concept: RxNormConcept): void => {
    if (concepts[code]) throw new Error(`RxNorm table: RXCUI ${code} is listed twice ("${concepts[code].display}", "${concept.display}")`);
    concepts[code] = concept;
  };
  const names = new DrugNameIndex();
  const rxcuiByIngredient = new Map<string, string>();
  const rxcuiOf = (name: string): string => {
    const rxcui = rxcuiByIngredient.get(name.toLowerCase());
    if (!rxcui) throw new Error(`RxNorm table: "${name}" is not an ingredient of the table`);
    return rxcui;
  };
  const addSynonym = (rxcui: string, synonym: string): void => {
    const concept = concepts[rxcui];
    if (concept.display === synonym || concept.synonyms?.includes(synonym)) return;
    concept.synonyms = [...(concept.synonyms ?? []), synonym];
  };

  const abbreviations = new Map<string, string[]>();
  for (const row of INGREDIENTS) {
    abbreviations.set(row.rxcui, (row.names ?? []).filter(isAbbreviation));
    put(row.rxcui, { display: row.name, tty: 'IN', ingredients: [row.rxcui], ...(row.names ? { synonyms: [...row.names] } : {}) });
    rxcuiByIngredient.set(row.name.toLowerCase(), row.rxcui);
    names.add(row.name, [row.name]);
    for (const other of row.names ?? []) names.add(other, [row.name]);
  }
  for (const row of PRECISE_INGREDIENTS) {
    const of = concepts[row.of];
    if (of?.tty !== 'IN') throw new Error(`RxNorm table: PIN ${row.rxcui} "${row.name}" is a form of ${row.of}, which is not an ingredient`);
    put(row.rxcui, { display: row.name, tty: 'PIN', ingredients: [row.of], formOf: row.of });
    names.add(row.name, [of.display]);
  }
  for (const row of MULTIPLE_INGREDIENTS) {
    const parts = row.name.split(' / ');
    if (parts.length < 2) throw new Error(`RxNorm table: MIN ${row.rxcui} "${row.name}" names fewer than two ingredients`);
    put(row.rxcui, { display: row.name, tty: 'MIN', ingredients: parts.map(rxcuiOf) });
  }
  for (const row of BRAND_CONCEPTS) {
    put(row.rxcui, { display: row.name, tty: 'BN', ingredients: row.ingredients.map(rxcuiOf) });
    names.add(row.name, row.ingredients);
  }
  for (const [brand, ingredients] of Object.entries(BRAND_NAMES)) {
    names.add(brand, ingredients);
    // Known by name only: the brand is searchable as a synonym of each of its coded ingredients (Unasyn is ampicillin
    // and sulbactam; sulbactam has no RXCUI here).
    for (const ingredient of ingredients) if (rxcuiByIngredient.has(ingredient.toLowerCase())) addSynonym(rxcuiOf(ingredient), brand);
  }
  for (const [ingredient, brands] of Object.entries(UNCODED_INGREDIENTS)) {
    if (rxcuiByIngredient.has(ingredient)) throw new Error(`RxNorm table: ${ingredient} is both coded and uncoded`);
    names.add(ingredient, [ingredient]);
    for (const brand of brands) names.add(brand, [ingredient]);
  }

  const product = (code: string, name: string, tty: RxNormTermType): RxNormConcept => {
    const components = componentsOfName(name);
    if (components.length === 0) throw new Error(`RxNorm table: ${tty} ${code} "${name}" names no ingredient strength`);
    const strengths: Strength[] = components.map((c) => {
      const found = names.find(c.substance).filter((n) => rxcuiByIngredient.has(n));
      if (found.length !== 1) throw new Error(`RxNorm table: ${tty} ${code} "${name}": "${c.substance}" names ${found.length} held ingredients`);
      return { substance: c.substance, ingredient: rxcuiOf(found[0]), value: c.value, unit: c.unit };
    });
    const ingredients = [...new Set(strengths.map((s) => s.ingredient))];
    // "losartan HCTZ" should find "hydrochlorothiazide 12.5 MG / losartan potassium 50 MG Oral Tablet": the product
    // is also known by its name with an ingredient's abbreviation (HCTZ, ASA, APAP) in place of the ingredient.
    const synonyms = ingredients.flatMap((i) => (abbreviations.get(i) ?? []).map((a) => name.replace(concepts[i].display, a)))
      .filter((s) => s !== name);
    return { display: name, tty, ingredients, strengths, ...(synonyms.length ? { synonyms } : {}) };
  };
  const componentByText = new Map<string, string>();
  for (const [code, name] of COMPONENTS) {
    put(code, product(code, name, 'SCDC'));
    componentByText.set(name, code);
  }
  const withComponents = (concept: RxNormConcept): RxNormConcept => {
    const held = componentsOfName(concept.display).map((c) => componentByText.get(c.text)).filter((c): c is string => c !== undefined);
    return held.length ? { ...concept, components: held } : concept;
  };
  const clinicalByName = new Map<string, string>();
  for (const [code, name] of CLINICAL_DRUGS) {
    put(code, withComponents(product(code, name, 'SCD')));
    clinicalByName.set(name, code);
  }
  const brandConceptByName = new Map(BRAND_CONCEPTS.map((b) => [b.name, b.rxcui]));
  for (const [code, name] of BRANDED_DRUGS as readonly ProductRow[]) {
    const concept = withComponents(product(code, name, 'SBD'));
    const brand = brandOfName(name);
    if (!brand) throw new Error(`RxNorm table: SBD ${code} "${name}" carries no [brand]`);
    const generic = clinicalByName.get(genericOfName(name));
    const bn = brandConceptByName.get(brand);
    // The bracketed brand must stand for exactly this product's ingredients (names.add throws otherwise).
    names.add(brand, concept.ingredients.map((i) => concepts[i].display));
    if (!bn) for (const ingredient of concept.ingredients) addSynonym(ingredient, brand);
    put(code, { ...concept, ...(generic ? { generic } : {}), ...(bn ? { brand: bn } : {}) });
  }
  const remapped = new Map<string, string>();
  for (const row of REMAPPED) {
    if (concepts[row.rxcui]) throw new Error(`RxNorm table: remapped RXCUI ${row.rxcui} is also a held concept`);
    if (!concepts[row.to]) throw new Error(`RxNorm table: RXCUI ${row.rxcui} is remapped to ${row.to}, which is not held`);
    remapped.set(row.rxcui, row.to);
  }
  return { concepts, names, rxcuiByIngredient, remapped };
}

/** An abbreviation clinicians write for an ingredient: short, mostly capitals (HCTZ, ASA, APAP, KCl, HCQ). */
function isAbbreviation(name: string): boolean {
  return name.length <= 5 && (name.match(/[A-Z]/g)?.length ?? 0) >= 2;
}
