// Code matching: a CodeableConcept matches when any coding is in the expected set; medications may also match by
// ingredient, recognised by ./drugs.ts from any RxNorm code (an SCD "lisinopril 10 MG Oral Tablet", the SBD, the brand,
// a combination product) or, without a held code, from drug names in the text ("Zestril 10 mg").
import type { CodeableConcept, Coding } from '@medplum/fhirtypes';
import { RXNORM_CONCEPTS } from '../../seed/codes/rxnorm.ts';
import { drugIngredients } from './drugs.ts';

export const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';
export const LOINC = 'http://loinc.org';
export const SNOMED = 'http://snomed.info/sct';
export const ICD10CM = 'http://hl7.org/fhir/sid/icd-10-cm';

export interface CodeSet {
  system: string;
  codes: string[];
}

export function codingsOf(concept: CodeableConcept | CodeableConcept[] | undefined): Coding[] {
  if (!concept) return [];
  return (Array.isArray(concept) ? concept : [concept]).flatMap((c) => c.coding ?? []);
}

export function describeConcept(concept: CodeableConcept | CodeableConcept[] | undefined): string {
  const codings = codingsOf(concept);
  if (codings.length === 0) {
    const text = (Array.isArray(concept) ? concept.map((c) => c.text) : [concept?.text]).filter(Boolean).join(', ');
    return text ? `text "${text}" (no coding)` : '(no code)';
  }
  return codings.map((c) => `${shortSystem(c.system)}|${c.code}${c.display ? ` "${c.display}"` : ''}`).join(', ');
}

function shortSystem(system: string | undefined): string {
  if (system === RXNORM) return 'rxnorm';
  if (system === LOINC) return 'loinc';
  if (system === SNOMED) return 'snomed';
  if (system === ICD10CM) return 'icd10cm';
  return system ?? '(no system)';
}

export function inCodeSet(concept: CodeableConcept | CodeableConcept[] | undefined, sets: CodeSet | CodeSet[]): boolean {
  const list = Array.isArray(sets) ? sets : [sets];
  return codingsOf(concept).some((c) => list.some((s) => s.system === c.system && c.code !== undefined && s.codes.includes(c.code)));
}

/**
 * RxNorm ingredient RXCUIs of a medication concept: drugIngredients (any held RxNorm code, else the drug names in its
 * text and displays). An RxNorm code the table does not hold still stands for itself, as it always has, so a grader
 * that lists such a code as an "ingredient" keeps matching it.
 */
export function rxnormIngredients(concept: CodeableConcept | undefined): string[] {
  const out = new Set(drugIngredients(concept));
  for (const c of codingsOf(concept)) if (c.system === RXNORM && c.code && !RXNORM_CONCEPTS[c.code]) out.add(c.code);
  return [...out];
}

/** An RxNorm-style drug name as a note would write it: "lisinopril 10 MG Oral Tablet" -> "lisinopril 10 mg". */
export function plainDrugName(name: string): string {
  return name.replace(/ Oral Tablet$/i, '').replace(/ MG\b/g, ' mg').replace(/ - see sig$/, '');
}

/** True when the concept is one of `codes` or contains one of `ingredients` (RxNorm RXCUIs; brands, products and
 * text-only drugs are recognised by their ingredients). */
export function isMedication(concept: CodeableConcept | undefined, expected: { codes?: string[]; ingredients?: string[] }): boolean {
  const codes = codingsOf(concept).filter((c) => c.system === RXNORM).map((c) => c.code);
  if (expected.codes?.some((code) => codes.includes(code))) return true;
  const ingredients = rxnormIngredients(concept);
  return expected.ingredients?.some((i) => ingredients.includes(i)) ?? false;
}
