// Strength of a drug product per ingredient: how much of each ingredient one dose unit (a tablet, one actuation, one
// mL) carries. Read from Medication.ingredient.strength, else from the drug's name: the RxNorm normalized form
// ("lisinopril 10 MG Oral Tablet", "sulfamethoxazole 800 MG / trimethoprim 160 MG Oral Tablet",
// "albuterol 0.09 MG/ACTUAT Metered Dose Inhaler", "insulin glargine 100 UNT/ML Injectable Solution") or the way
// clinicians write it ("Jardiance 10 mg tablet", "lisinopril-HCTZ 20-12.5 mg").
import type { CodeableConcept, Medication, Ratio } from '@medplum/fhirtypes';
import { RXNORM_CONCEPTS, RXNORM_DRUG_NAMES, rxcuiOfIngredient } from '../../../seed/codes/rxnorm.ts';
import { RXNORM } from '../codings.ts';
import { doseUnitKind, ucumCode } from '../../../resources/units/ucum.ts';

export interface IngredientStrength {
  /** The ingredient's canonical name ("losartan" for "losartan potassium", "empagliflozin" for "Jardiance"), or the
   * name as written when the vocabulary does not know it; undefined when the source names none. */
  ingredient?: string;
  /** Its RxNorm ingredient (IN) RXCUI, when known. */
  rxcui?: string;
  /** Amount of the ingredient (UCUM unit: mg, ug, [iU], mmol...). */
  value: number;
  unit: string;
  /**
   * What the amount is per: '' = one dose unit (tablet, capsule); a volume ('mL', with perValue: "250 MG/5 ML");
   * '{actuat}' = one puff/actuation; a time ('h') for patches and infusions.
   */
  per: string;
  perValue: number;
}

/** Where a drug's identity can come from: a concept, a Medication resource, or a drug name. */
export type MedicationSource = CodeableConcept | Medication | string | undefined;

// Numerator units of a strength: amounts of substance, never a bare volume ("3 ML insulin lispro 100 UNT/ML" is a
// package size) nor a duration ("24 HR metoprolol").
const AMOUNT_UNIT = String.raw`mg|mcg|µg|μg|ug|g|gm|units?|unt|iu|meq|mmol|milligrams?|micrograms?|grams?`;
const PER_UNIT = String.raw`ml|l|actuat|actuation|puff|spray|inhalation|hr|h|hour|d|day|g|tablet|tab|capsule|cap`;
const NUMBER = String.raw`(?<![\d.,])\d+(?:,\d{3})*(?:\.\d+)?|(?<![\d.])\.\d+`;
const STRENGTH = new RegExp(
  String.raw`(${NUMBER})((?:\s*[-/]\s*(?:${NUMBER}))*)\s*(${AMOUNT_UNIT})\b(?:\s*(?:/|per|in)\s*(${NUMBER})?\s*(${PER_UNIT})\b)?`,
  'gi',
);

function toNumber(s: string): number {
  return Number(s.replace(/,/g, ''));
}

function perOf(unit: string | undefined): string {
  if (!unit) return '';
  const u = unit.toLowerCase().replace(/\s+/g, '');
  if (/^(actuat|actuation|puff|spray|inhalation)$/.test(u)) return '{actuat}';
  if (/^(tablet|tab|capsule|cap)$/.test(u)) return '';
  if (/^(hr|hour)$/.test(u)) return 'h';
  if (u === 'day') return 'd';
  return ucumCode(unit);
}

/** The ingredient name written before a strength: "24 HR metoprolol succinate" -> "metoprolol succinate". */
function cleanName(raw: string): string | undefined {
  const name = raw
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/^.*\b(of|take|tablets?|capsules?)\b/i, ' ')
    .replace(/^\s*\d+(?:\.\d+)?\s*(hr|ml|actuat)\b/i, ' ')
    .replace(/[,;:()]/g, ' ')
    .trim()
    .toLowerCase();
  return name && /[a-z]/.test(name) ? name.replace(/\s+/g, ' ') : undefined;
}

/** An ingredient as named: its canonical name and RXCUI when the drug-name vocabulary knows the name (brands,
 * salts and abbreviations included: "Jardiance", "losartan potassium", "HCTZ"), else the name as written. */
function named(raw: string | undefined): Pick<IngredientStrength, 'ingredient' | 'rxcui'> {
  if (!raw) return {};
  let found = RXNORM_DRUG_NAMES.find(raw);
  // "Epclusa (sofosbuvir 400 mg / ...": the brand names every ingredient of the combination, the word just before
  // the number names the one the number belongs to.
  if (found.length > 1) {
    const words = raw.split(' ');
    for (let n = 1; n < words.length && found.length !== 1; n++) {
      const tail = RXNORM_DRUG_NAMES.find(words.slice(-n).join(' '));
      if (tail.length === 1) found = tail;
    }
  }
  if (found.length !== 1) return { ingredient: raw };
  const rxcui = rxcuiOfIngredient(found[0]);
  return { ingredient: found[0], ...(rxcui ? { rxcui } : {}) };
}

/** One ingredient of the vocabulary, coded or known by name only (sofosbuvir, glecaprevir). */
const oneIngredient = (p: Pick<IngredientStrength, 'ingredient' | 'rxcui'>): boolean =>
  p.rxcui !== undefined || (p.ingredient !== undefined && RXNORM_DRUG_NAMES.exact(p.ingredient)?.length === 1);

/** Every strength written in a drug name, per ingredient, in the order written. */
export function strengthsInName(name: string): IngredientStrength[] {
  const out: IngredientStrength[] = [];
  /** For each strength, the generic parts named before it when they are two or more ("glecaprevir/pibrentasvir"). */
  const combos: (Pick<IngredientStrength, 'ingredient' | 'rxcui'>[] | undefined)[] = [];
  let boundary = 0;
  for (const m of name.matchAll(STRENGTH)) {
    const before = name.slice(boundary, m.index).replace(/^\s*\/\s*/, '');
    const values = [m[1], ...(m[2] ? m[2].split(/[-/]/).map((s) => s.trim()).filter(Boolean) : [])].map(toNumber);
    const unit = ucumCode(m[3]);
    const per = perOf(m[5]);
    const perValue = m[4] ? toNumber(m[4]) : 1;
    const written = cleanName(before);
    if (values.length === 1) {
      out.push({ ...named(written), value: values[0], unit, per, perValue });
      const parts = (written ?? '').split(/\s*[-/]\s*|\s+and\s+/).filter(Boolean).map(named);
      combos.push(parts.length > 1 && parts.every(oneIngredient) ? parts : undefined);
    } else {
      // "lisinopril-HCTZ 20-12.5 mg": one named part per number, in order, when every part names one ingredient.
      // A brand ("Zestoretic 20-12.5 mg") does not say which number is which: its ingredients stay unnamed.
      const parts = (written ?? '').split(/\s*[-/]\s*|\s+and\s+/).filter(Boolean).map(named);
      const usable = parts.length === values.length && parts.every(oneIngredient);
      values.forEach((value, i) => { out.push({ ...(usable ? parts[i] : {}), value, unit, per, perValue }); combos.push(undefined); });
    }
    boundary = m.index + m[0].length;
  }
  // "glecaprevir/pibrentasvir 100mg/40mg": the generic names come first and each number carries its own unit; the
  // numbers that follow unnamed belong to the named parts in order (generics are named, so this is no brand guess).
  combos.forEach((parts, i) => {
    if (!parts || i + parts.length > out.length) return;
    const run = out.slice(i + 1, i + parts.length);
    if (run.some((s) => s.ingredient !== undefined || s.unit !== out[i].unit)) return;
    parts.forEach((p, k) => { out[i + k] = { ...out[i + k], ...p }; });
  });
  return out;
}

/** The strengths the RxNorm vocabulary holds for a code (read there from the normalized name, with RXCUIs). */
function strengthsOfCode(rxcui: string): IngredientStrength[] {
  return (RXNORM_CONCEPTS[rxcui]?.strengths ?? []).map((s) => {
    const [numerator, denominator] = s.unit.split('/');
    const ingredient = RXNORM_CONCEPTS[s.ingredient]?.display.toLowerCase();
    return { ...(ingredient ? { ingredient } : {}), rxcui: s.ingredient, value: s.value, unit: ucumCode(numerator), per: perOf(denominator), perValue: 1 };
  });
}

function quantityUnit(q: { unit?: string; code?: string; system?: string } | undefined): string {
  if (!q) return '';
  return q.system === 'http://unitsofmeasure.org' && q.code ? q.code : (q.unit ?? q.code ?? '');
}

/** Medication.ingredient[].strength as per-dose-unit strengths. */
function strengthsOfIngredients(medication: Medication): IngredientStrength[] {
  const out: IngredientStrength[] = [];
  for (const ing of medication.ingredient ?? []) {
    const s: Ratio | undefined = ing.strength;
    if (s?.numerator?.value === undefined) continue;
    const concept = ing.itemCodeableConcept;
    const name = concept?.text ?? concept?.coding?.map((c) => c.display).find(Boolean);
    const denominator = quantityUnit(s.denominator);
    const kind = doseUnitKind(denominator);
    // Per tablet/capsule/each (or no denominator) is per dose unit; per actuation and per volume keep their unit.
    const per = !denominator || denominator === '1' ? '' : kind === '{actuat}' ? kind : kind ? '' : ucumCode(denominator);
    const code = concept?.coding?.find((c) => c.system === RXNORM && c.code && RXNORM_CONCEPTS[c.code]?.tty === 'IN')?.code;
    const who = code ? { ingredient: RXNORM_CONCEPTS[code].display.toLowerCase(), rxcui: code } : named(name?.toLowerCase());
    out.push({ ...who, value: s.numerator.value, unit: ucumCode(quantityUnit(s.numerator)), per, perValue: s.denominator?.value ?? 1 });
  }
  return out;
}

/** The names a concept carries, most authoritative first: the official RxNorm display of its code, displays, text. */
export function namesOf(concept: CodeableConcept | undefined): string[] {
  const names: string[] = [];
  for (const c of concept?.coding ?? []) if (c.system === RXNORM && c.code && RXNORM_CONCEPTS[c.code]) names.push(RXNORM_CONCEPTS[c.code].display);
  for (const c of concept?.coding ?? []) if (c.display) names.push(c.display);
  if (concept?.text) names.push(concept.text);
  return names;
}

function isMedicationResource(m: MedicationSource): m is Medication {
  return typeof m === 'object' && (m as Medication).resourceType === 'Medication';
}

/** The product's names: of a Medication's code, a concept's codings and text, or the string itself. */
export function medicationNames(medication: MedicationSource): string[] {
  if (!medication) return [];
  if (typeof medication === 'string') return [medication];
  if (isMedicationResource(medication)) return namesOf(medication.code);
  return namesOf(medication);
}

function same(a: IngredientStrength, b: IngredientStrength): boolean {
  return a.value === b.value && a.unit === b.unit && a.per === b.per && a.perValue === b.perValue;
}

/**
 * Every source's strengths: Medication.ingredient first, then the RxNorm vocabulary's strengths of each code, then
 * each name (official RxNorm display, displays, text). The first source that states strengths wins; `conflict` is set
 * when a later source states a different strength for the same product (a 10 mg code with "20 mg" in its text): such
 * an order has no knowable strength.
 */
export function strengthsOf(medication: MedicationSource): { strengths: IngredientStrength[]; conflict?: string } {
  const sources: { from: string; strengths: IngredientStrength[] }[] = [];
  if (isMedicationResource(medication)) sources.push({ from: 'Medication.ingredient', strengths: strengthsOfIngredients(medication) });
  const concept = typeof medication === 'string' ? undefined : isMedicationResource(medication) ? medication.code : medication;
  for (const c of concept?.coding ?? []) if (c.system === RXNORM && c.code) sources.push({ from: `rxnorm|${c.code}`, strengths: strengthsOfCode(c.code) });
  for (const name of medicationNames(medication)) sources.push({ from: `"${name}"`, strengths: strengthsInName(name) });
  const stated = sources.filter((s) => s.strengths.length > 0);
  if (stated.length === 0) return { strengths: [] };
  const first = stated[0];
  for (const other of stated.slice(1)) {
    // Compared as sets: RxNorm orders a combination's ingredients alphabetically, people do not.
    const disagrees = other.strengths.length === first.strengths.length && other.strengths.some((s) => !first.strengths.some((f) => same(s, f)));
    if (disagrees) return { strengths: [], conflict: `${first.from} and ${other.from} state different strengths` };
  }
  return { strengths: first.strengths };
}

/** The ingredients asked for (IN or PIN RXCUIs, or names, brands and abbreviations) as IN RXCUIs and canonical names. */
function wantedIngredients(ingredients: string[] | undefined): { rxcuis: Set<string>; names: Set<string> } {
  const rxcuis = new Set<string>();
  const names = new Set<string>();
  for (const i of ingredients ?? []) {
    const concept = RXNORM_CONCEPTS[i];
    if (concept?.tty === 'IN' || concept?.tty === 'PIN') {
      const rxcui = concept.formOf ?? i;
      rxcuis.add(rxcui);
      names.add(RXNORM_CONCEPTS[rxcui].display.toLowerCase());
      continue;
    }
    if (concept || /^\d+$/.test(i)) continue; // a product code, or an RXCUI we do not hold, names no ingredient
    for (const name of RXNORM_DRUG_NAMES.find(i)) {
      names.add(name);
      const rxcui = rxcuiOfIngredient(name);
      if (rxcui) rxcuis.add(rxcui);
    }
    if (RXNORM_DRUG_NAMES.find(i).length === 0) names.add(i.toLowerCase());
  }
  return { rxcuis, names };
}

/**
 * The strength of one ingredient of a product. A single-ingredient product's only strength is used whatever it is
 * called (brand names); in a combination product the ingredient must be named, else the strength is unknown.
 */
export function strengthFor(medication: MedicationSource, ingredients?: string[]): IngredientStrength | undefined {
  const { strengths } = strengthsOf(medication);
  if (strengths.length === 0) return undefined;
  if (strengths.length === 1) return strengths[0];
  const wanted = wantedIngredients(ingredients);
  const hits = strengths.filter((s) => (s.rxcui !== undefined && wanted.rxcuis.has(s.rxcui)) || (s.ingredient !== undefined && wanted.names.has(s.ingredient)));
  return hits.length === 1 ? hits[0] : undefined;
}
