// The seed's code tables (seed/codes/, the codes the population generator emits) as terminology sources: one code
// table per system, RxNorm's term types and ingredient relations, and the local flowsheet -> LOINC map the lab
// catalogue (seed/labs.ts) defines. The seed's data is read here, never edited.
import { codeTables, RXNORM, RXNORM_CONCEPTS } from '../../seed/codes/index.ts';
import { FLOWSHEET, LOINC } from '../../seed/codes/index.ts';
import { LABS } from '../../seed/labs.ts';
import type { CodeMapTable, CodeTable, CodeTableConcept } from './model.ts';

export const FLOWSHEET_SYSTEM = FLOWSHEET.system;
export const FLOWSHEET_TO_LOINC_URL = 'http://ehr-gym.example/fhir/ConceptMap/flowsheet-to-loinc';

/** Systems the seed holds in full (our own); the others are fragments of much larger systems. */
const COMPLETE_SYSTEMS = new Set([FLOWSHEET.system]);

export function readSeedCodeTables(): { tables: CodeTable[]; maps: CodeMapTable[] } {
  const tables: CodeTable[] = codeTables.map((table) => ({
    system: table.system,
    title: table.title,
    name: table.title.replace(/[^A-Za-z0-9]/g, ''),
    content: COMPLETE_SYSTEMS.has(table.system) ? 'complete' : 'fragment',
    concepts: Object.entries(table.concepts).map(([code, display]): CodeTableConcept => {
      if (table.system !== RXNORM.system) return { code, display };
      const rx = RXNORM_CONCEPTS[code];
      const ingredients = (rx?.ingredients ?? []).filter((i) => i !== code).map((i) => `${RXNORM.system}|${i}`);
      return { code, display, properties: { TTY: rx?.tty ?? '', ...(ingredients.length ? { has_ingredient: ingredients } : {}) } };
    }),
  }));
  const rxnorm = tables.find((t) => t.system === RXNORM.system);
  if (rxnorm) {
    rxnorm.properties = [
      { code: 'TTY', type: 'code', description: 'RxNorm term type: IN ingredient, SCD semantic clinical drug' },
      { code: 'has_ingredient', type: 'Coding', description: 'An ingredient of this clinical drug' },
      { code: 'ingredient_of', type: 'Coding', description: 'A clinical drug with this ingredient' },
    ];
  }
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
