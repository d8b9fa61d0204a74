// The shape of the curated RxNorm table and the reading of RxNorm's normalized drug names. RxNorm names clinical drugs
// by rule ("[quantity] [qualifier] ingredient strength / ingredient strength dose form [Brand]"), so the components,
// strengths and brand of a product can be read from its name instead of being typed twice (RxNorm Technical
// Documentation, section 6 "Normalized forms").

/** RxNorm term types held here: ingredient, precise ingredient (a salt or form), multiple ingredients (the ingredient
 * set of a combination, "umeclidinium / vilanterol"), brand name, clinical drug component, semantic clinical drug and
 * semantic branded drug. */
export type RxNormTermType = 'IN' | 'PIN' | 'MIN' | 'BN' | 'SCDC' | 'SCD' | 'SBD';

/** One ingredient strength of a product, as its normalized name states it ("losartan potassium 50 MG"). */
export interface Strength {
  /** The substance as named in the product (may be a salt: "losartan potassium"). */
  substance: string;
  /** Ingredient (IN) RXCUI the substance is a form of. */
  ingredient: string;
  value: number;
  /** RxNorm unit: MG, MEQ, UNT, MG/ML, MG/ACTUAT, UNT/ML, MG/HR, ... */
  unit: string;
}

export interface RxNormConcept {
  display: string;
  tty: RxNormTermType;
  /** Ingredient (IN) RXCUIs: has_ingredient resolved to ingredients (an IN is its own ingredient). */
  ingredients: string[];
  /** PIN: the ingredient it is a form of. */
  formOf?: string;
  /** SBD: the generic clinical drug (SCD) it is a brand of. */
  generic?: string;
  /** SBD: the brand name (BN) concept, when its RXCUI is held. */
  brand?: string;
  /** SCD/SBD: the clinical drug components (SCDC) it consists of, when held. */
  components?: string[];
  /** SCDC/SCD/SBD: strengths read from the normalized name. */
  strengths?: Strength[];
  /** Other names clinicians write for it: international names, abbreviations, brand names we hold no BN code for. */
  synonyms?: string[];
}

/** A component as a normalized name states it: substance, strength value, unit. */
export interface NamedComponent {
  substance: string;
  value: number;
  unit: string;
  /** The component as written, which is also its SCDC name ("dabigatran etexilate 150 MG"). */
  text: string;
}

// A substance name starts with a lower-case letter (RxNorm lower-cases ingredient names, "penicillin V potassium" keeps
// its capital later), so prefixes such as "24 HR", "0.4 ML", "30 ACTUAT" or "Osmotic" are never read as part of it.
const COMPONENT = /(?<![A-Za-z])([a-z][A-Za-z0-9,\-. ()]*?)\s(\d+(?:\.\d+)?)\s([A-Z]+(?:\/[A-Z]+)?)(?![A-Za-z])/g;

/** The components of a normalized SCD/SBD/SCDC name ("hydrochlorothiazide 12.5 MG / lisinopril 20 MG Oral Tablet"). */
export function componentsOfName(name: string): NamedComponent[] {
  const generic = name.replace(/\s*\[[^\]]*\]\s*$/, '');
  return [...generic.matchAll(COMPONENT)].map((m) => {
    const substance = m[1].trim();
    return { substance, value: Number(m[2]), unit: m[3], text: `${substance} ${m[2]} ${m[3]}` };
  });
}

/** The brand an SBD name carries in brackets ("empagliflozin 10 MG Oral Tablet [Jardiance]" -> "Jardiance"). */
export function brandOfName(name: string): string | undefined {
  return /\[([^\]]+)\]\s*$/.exec(name)?.[1];
}

/** The generic (SCD) name of an SBD name: the same name without its brand. */
export function genericOfName(name: string): string {
  return name.replace(/\s*\[[^\]]*\]\s*$/, '');
}
