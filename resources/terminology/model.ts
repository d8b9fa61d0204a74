// The in-memory shape of terminology content, independent of where it came from (HL7 definitions, the seed's code
// tables, our supplementary data). Every source is normalised into these values; operations only read them.
import type { CodeSystem, ConceptMap, ValueSet } from '@medplum/fhirtypes';

export interface Designation {
  language?: string;
  use?: { system?: string; code?: string; display?: string };
  value: string;
}

/** A concept property value, typed as in CodeSystem.concept.property.value[x]. */
export type PropertyValue =
  | { type: 'code'; value: string }
  | { type: 'string'; value: string }
  | { type: 'boolean'; value: boolean }
  | { type: 'integer'; value: number }
  | { type: 'decimal'; value: number }
  | { type: 'Coding'; value: { system?: string; code: string; display?: string } };

export interface ConceptProperty {
  code: string;
  value: PropertyValue;
}

export interface Concept {
  code: string;
  display?: string;
  definition?: string;
  designations: Designation[];
  properties: ConceptProperty[];
  /** Codes of the direct parents in the same system (is-a). */
  parents: string[];
  /** Codes of the direct children in the same system (is-a). */
  children: string[];
  /** Lower-case words of the display and synonyms, for word-prefix text search. */
  words?: string[];
  /** Lower-case display and synonyms, for ranking text matches. */
  terms?: string[];
  /** Curated ordering hint for text search (lower first), e.g. how common a lab test is. */
  rank?: number;
}

export interface PropertyDefinition {
  code: string;
  type: PropertyValue['type'];
  description?: string;
  uri?: string;
}

export interface CodeSystemEntry {
  url: string;
  name?: string;
  title?: string;
  version?: string;
  /** `fragment` for the large external systems we hold a part of (SNOMED CT, LOINC, ...). */
  content: CodeSystem['content'];
  caseSensitive: boolean;
  description?: string;
  publisher?: string;
  properties: PropertyDefinition[];
  concepts: Map<string, Concept>;
  /** Lower-cased code -> code, for case-insensitive systems. */
  byLowerCode?: Map<string, string>;
  /** The resource as published (HL7 definitions); undefined when built from tables. */
  resource?: CodeSystem;
}

export interface ValueSetEntry {
  url: string;
  resource: ValueSet;
}

export interface ConceptMapEntry {
  url: string;
  resource: ConceptMap;
}

export function newConcept(code: string, display?: string): Concept {
  return { code, display, designations: [], properties: [], parents: [], children: [] };
}

/** A code table: the shape of the supplementary files resources/terminology/data/*.codes.json (and of the seed tables once read). */
export interface CodeTable {
  system: string;
  name?: string;
  title?: string;
  version?: string;
  content?: CodeSystem['content'];
  caseSensitive?: boolean;
  description?: string;
  properties?: { code: string; type?: PropertyValue['type']; description?: string }[];
  concepts: CodeTableConcept[];
}

export interface CodeTableConcept {
  code: string;
  display?: string;
  synonyms?: string[];
  parents?: string[];
  /** Ordering hint for text search, lower first (how commonly the test/drug is used). */
  rank?: number;
  /** Property values; a Coding-typed property is given as `system|code` or as a Coding. */
  properties?: Record<string, string | number | boolean | { system?: string; code: string; display?: string } | (string | number)[]>;
}

/** Mappings between two systems, as pairs (local flowsheet <-> LOINC, ICD-10-CM <-> SNOMED CT). */
export interface CodeMapTable {
  url: string;
  name: string;
  title?: string;
  sourceSystem: string;
  targetSystem: string;
  sourceValueSet?: string;
  targetValueSet?: string;
  elements: { source: string; target: string; equivalence?: string; comment?: string }[];
}
