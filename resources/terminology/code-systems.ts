// Normalises code systems into `CodeSystemEntry` values: from published CodeSystem resources (HL7) and from code
// tables (the seed's tables and our supplementary data), and merges a table into an existing entry.
import type { CodeSystem, CodeSystemConcept, CodeSystemConceptProperty } from '@medplum/fhirtypes';
import type { CodeSystemEntry, CodeTable, Concept, ConceptProperty, PropertyDefinition, PropertyValue } from './model.ts';
import { newConcept } from './model.ts';

// Property codes that carry the hierarchy (FHIR R4 CodeSystem 4.8.7 "concept properties").
const PARENT_PROPERTIES = new Set(['parent', 'subsumedBy']);
const CHILD_PROPERTIES = new Set(['child']);

export function codeSystemFromResource(resource: CodeSystem): CodeSystemEntry {
  const entry: CodeSystemEntry = {
    url: resource.url!,
    name: resource.name,
    title: resource.title,
    version: resource.version,
    content: resource.content ?? 'complete',
    caseSensitive: resource.caseSensitive !== false,
    description: resource.description,
    publisher: resource.publisher,
    properties: (resource.property ?? []).map((p) => ({
      code: p.code!,
      type: (p.type ?? 'string') as PropertyValue['type'],
      description: p.description,
      uri: p.uri,
    })),
    concepts: new Map(),
    resource,
  };
  const walk = (concepts: CodeSystemConcept[] | undefined, parent: string | undefined) => {
    for (const c of concepts ?? []) {
      if (!c.code) continue;
      const concept = newConcept(c.code, c.display);
      concept.definition = c.definition;
      for (const d of c.designation ?? []) {
        if (d.value) concept.designations.push({ language: d.language, use: d.use as Concept['designations'][0]['use'], value: d.value });
      }
      for (const p of c.property ?? []) {
        const value = propertyValue(p);
        if (!value) continue;
        if (PARENT_PROPERTIES.has(p.code!) && value.type === 'code') concept.parents.push(value.value);
        else if (CHILD_PROPERTIES.has(p.code!) && value.type === 'code') concept.children.push(value.value);
        else concept.properties.push({ code: p.code!, value });
      }
      if (parent && !concept.parents.includes(parent)) concept.parents.push(parent);
      if (!entry.concepts.has(c.code)) entry.concepts.set(c.code, concept);
      walk(c.concept, c.code);
    }
  };
  walk(resource.concept, undefined);
  return entry;
}

function propertyValue(p: CodeSystemConceptProperty): PropertyValue | undefined {
  if (p.valueCode !== undefined) return { type: 'code', value: p.valueCode };
  if (p.valueString !== undefined) return { type: 'string', value: p.valueString };
  if (p.valueBoolean !== undefined) return { type: 'boolean', value: p.valueBoolean };
  if (p.valueInteger !== undefined) return { type: 'integer', value: p.valueInteger };
  if (p.valueDecimal !== undefined) return { type: 'decimal', value: p.valueDecimal };
  if (p.valueDateTime !== undefined) return { type: 'string', value: p.valueDateTime };
  if (p.valueCoding?.code !== undefined) {
    return { type: 'Coding', value: { system: p.valueCoding.system, code: p.valueCoding.code, display: p.valueCoding.display } };
  }
  return undefined;
}

export function emptyCodeSystem(table: Pick<CodeTable, 'system' | 'name' | 'title' | 'version' | 'content' | 'caseSensitive' | 'description'>): CodeSystemEntry {
  return {
    url: table.system,
    name: table.name,
    title: table.title,
    version: table.version,
    content: table.content ?? 'fragment',
    caseSensitive: table.caseSensitive !== false,
    description: table.description,
    properties: [],
    concepts: new Map(),
  };
}

/**
 * Adds a table's concepts to an entry: new codes are added, known codes gain the table's synonyms, properties and
 * parents (a display from the table fills a missing display only - the first source to name a concept wins).
 */
export function mergeCodeTable(entry: CodeSystemEntry, table: CodeTable): void {
  entry.name ??= table.name;
  entry.title ??= table.title;
  entry.version ??= table.version;
  entry.description ??= table.description;
  for (const def of table.properties ?? []) {
    if (!entry.properties.some((p) => p.code === def.code)) {
      entry.properties.push({ code: def.code, type: def.type ?? 'string', description: def.description });
    }
  }
  const definedType = (code: string): PropertyDefinition['type'] | undefined => entry.properties.find((p) => p.code === code)?.type;
  for (const row of table.concepts) {
    if (!row.code) continue;
    let concept = entry.concepts.get(row.code);
    if (!concept) {
      concept = newConcept(row.code, row.display);
      entry.concepts.set(row.code, concept);
    }
    if (concept.display === undefined) concept.display = row.display;
    else if (row.display && row.display !== concept.display && !concept.designations.some((d) => d.value === row.display)) {
      // A second source's name for a known concept (e.g. a SNOMED fully specified name) is kept as a synonym.
      concept.designations.push({ use: SYNONYM_USE, value: row.display });
    }
    if (row.rank !== undefined) concept.rank = row.rank;
    for (const synonym of row.synonyms ?? []) {
      if (synonym && synonym !== concept.display && !concept.designations.some((d) => d.value === synonym)) {
        concept.designations.push({ use: SYNONYM_USE, value: synonym });
      }
    }
    for (const parent of row.parents ?? []) if (!concept.parents.includes(parent)) concept.parents.push(parent);
    for (const [code, raw] of Object.entries(row.properties ?? {})) {
      for (const one of Array.isArray(raw) ? raw : [raw]) {
        const value = tablePropertyValue(one, definedType(code));
        if (value && !concept.properties.some((p) => p.code === code && samePropertyValue(p.value, value))) {
          concept.properties.push({ code, value } satisfies ConceptProperty);
        }
      }
    }
  }
}

/** SNOMED CT's "Synonym" designation use, the one the FHIR spec's examples use for synonyms. */
export const SYNONYM_USE = { system: 'http://snomed.info/sct', code: '900000000000013009', display: 'Synonym' };

function tablePropertyValue(
  raw: string | number | boolean | { system?: string; code: string; display?: string },
  type: PropertyDefinition['type'] | undefined,
): PropertyValue | undefined {
  if (raw === null || raw === undefined || raw === '') return undefined;
  if (typeof raw === 'object') return { type: 'Coding', value: raw };
  if (typeof raw === 'boolean') return { type: 'boolean', value: raw };
  if (typeof raw === 'number') return Number.isInteger(raw) && type !== 'decimal' ? { type: 'integer', value: raw } : { type: 'decimal', value: raw };
  if (type === 'Coding') {
    const bar = raw.lastIndexOf('|');
    return { type: 'Coding', value: bar >= 0 ? { system: raw.slice(0, bar), code: raw.slice(bar + 1) } : { code: raw } };
  }
  if (type === 'code') return { type: 'code', value: raw };
  return { type: 'string', value: raw };
}

function samePropertyValue(a: PropertyValue, b: PropertyValue): boolean {
  return JSON.stringify(a.value) === JSON.stringify(b.value);
}

/** The text form of a property value, for `=`/`regex` filters and text display. */
export function propertyText(value: PropertyValue): string {
  if (value.type === 'Coding') return value.value.code;
  return String(value.value);
}
