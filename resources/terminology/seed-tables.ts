// The seed's code tables (seed/codes/, the codes the population generator emits) as terminology sources: one code
// table per system, RxNorm's term types and relations, and the local flowsheet -> LOINC map the lab catalogue
// (seed/codes/labs.ts) defines. The seed's data is read here, never edited.
import { codeTables, RXNORM, RXNORM_CONCEPTS } from '../../seed/codes/index.ts';
import { FLOWSHEET, LOINC } from '../../seed/codes/index.ts';
import type { RxNormConcept } from '../../seed/codes/rxnorm.ts';
import { LABS } from '../../seed/codes/labs.ts';
import type { CodeMapTable, CodeTable, CodeTableConcept } from './model.ts';

export const FLOWSHEET_SYSTEM = FLOWSHEET.system;
export const FLOWSHEET_TO_LOINC_URL = 'http://ehr-gym.example/fhir/ConceptMap/flowsheet-to-loinc';

/** Systems the seed holds in full (our own); the others are fragments of much larger systems. */
const COMPLETE_SYSTEMS = new Set([FLOWSHEET.system]);

/**
 * RxNorm concept properties, named as RxNorm's relationships (RxNorm Technical Documentation, Appendix 1 "RELA").
 * has_ingredient is resolved to the ingredient (IN) for every term type, as RxNav's getRelatedByType(IN) does, so one
 * property answers "what is in this drug"; ingredient_of is its inverse (added by the index, ./load.ts).
 */
const RXNORM_PROPERTIES: NonNullable<CodeTable['properties']> = [
  { code: 'TTY', type: 'code', description: 'RxNorm term type: IN ingredient, PIN precise ingredient, BN brand name, SCDC clinical drug component, SCD semantic clinical drug, SBD semantic branded drug' },
  { code: 'has_ingredient', type: 'Coding', description: 'An ingredient (IN) of this drug' },
  { code: 'ingredient_of', type: 'Coding', description: 'A drug with this ingredient' },
  { code: 'form_of', type: 'Coding', description: 'The ingredient this precise ingredient (salt or form) is a form of' },
  { code: 'has_form', type: 'Coding', description: 'A precise ingredient (salt or form) of this ingredient' },
  { code: 'tradename_of', type: 'Coding', description: 'Brand name: the ingredient it is a brand of; branded drug: its generic clinical drug' },
  { code: 'has_tradename', type: 'Coding', description: 'Ingredient: a brand name of it; clinical drug: a branded version of it' },
  { code: 'has_brand_name', type: 'Coding', description: 'The brand name (BN) of this branded drug' },
  { code: 'brand_name_of', type: 'Coding', description: 'A branded drug sold under this brand name' },
  { code: 'consists_of', type: 'Coding', description: 'A clinical drug component (ingredient + strength) of this drug' },
  { code: 'constitutes', type: 'Coding', description: 'A drug this clinical drug component is part of' },
  { code: 'strength', type: 'string', description: 'Ingredient strength as the normalized name states it (e.g. "losartan potassium 50 MG")' },
];

type Relations = Record<string, string[]>;

/** Each concept's outgoing relations (RXCUIs by property), both directions except ingredient_of. */
export function rxnormRelations(concepts: Readonly<Record<string, RxNormConcept>>): Map<string, Relations> {
  const relations = new Map<string, Relations>();
  const link = (from: string, property: string, to: string): void => {
    const own = relations.get(from) ?? {};
    if (!(own[property] ??= []).includes(to)) own[property].push(to);
    relations.set(from, own);
  };
  for (const [code, c] of Object.entries(concepts)) {
    if (c.tty !== 'IN') for (const ingredient of c.ingredients) if (ingredient !== code) link(code, 'has_ingredient', ingredient);
    if (c.formOf) { link(code, 'form_of', c.formOf); link(c.formOf, 'has_form', code); }
    if (c.tty === 'BN') for (const ingredient of c.ingredients) { link(code, 'tradename_of', ingredient); link(ingredient, 'has_tradename', code); }
    if (c.generic) { link(code, 'tradename_of', c.generic); link(c.generic, 'has_tradename', code); }
    if (c.brand) { link(code, 'has_brand_name', c.brand); link(c.brand, 'brand_name_of', code); }
    for (const component of c.components ?? []) { link(code, 'consists_of', component); link(component, 'constitutes', code); }
  }
  return relations;
}

function rxnormRow(code: string, display: string, relations: Map<string, Relations>): CodeTableConcept {
  const rx = RXNORM_CONCEPTS[code];
  const properties: NonNullable<CodeTableConcept['properties']> = { TTY: rx?.tty ?? '' };
  for (const [property, targets] of Object.entries(relations.get(code) ?? {})) {
    properties[property] = targets.map((target) => `${RXNORM.system}|${target}`);
  }
  if (rx?.strengths?.length) properties.strength = rx.strengths.map((s) => `${s.substance} ${s.value} ${s.unit}`).join(' / ');
  return { code, display, ...(rx?.synonyms?.length ? { synonyms: [...rx.synonyms] } : {}), properties };
}

export function readSeedCodeTables(): { tables: CodeTable[]; maps: CodeMapTable[] } {
  const relations = rxnormRelations(RXNORM_CONCEPTS);
  const tables: CodeTable[] = codeTables.map((table) => ({
    system: table.system,
    title: table.title,
    name: table.title.replace(/[^A-Za-z0-9]/g, ''),
    content: COMPLETE_SYSTEMS.has(table.system) ? 'complete' : 'fragment',
    ...(table.system === RXNORM.system ? { properties: RXNORM_PROPERTIES } : {}),
    concepts: Object.entries(table.concepts).map(([code, display]): CodeTableConcept =>
      table.system === RXNORM.system ? rxnormRow(code, display, relations) : { code, display }),
  }));
  const labs = Object.values(LABS) as { local: string; loinc: string }[];
  const maps: CodeMapTable[] = [{
    url: FLOWSHEET_TO_LOINC_URL,
    name: 'FlowsheetToLOINC',
    title: 'Local flowsheet codes to LOINC',
    sourceSystem: FLOWSHEET.system,
    targetSystem: LOINC.system,
    elements: labs.map((lab) => ({ source: lab.local, target: lab.loinc, equivalence: 'equivalent' })),
  }];
  return { tables, maps };
}
