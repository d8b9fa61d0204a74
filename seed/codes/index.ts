// Every checked-in code table, by system URL: the generator's only source of codes, and the terminology service's.
import type { CodeTable } from './types.ts';
import { LOINC } from './loinc.ts';
import { SNOMED } from './snomed.ts';
import { ICD10CM } from './icd10cm.ts';
import { RXNORM } from './rxnorm.ts';
import { CVX } from './cvx.ts';
import { UCUM } from './ucum.ts';
import { FLOWSHEET } from './flowsheet.ts';
import { FORMULARY } from './formulary.ts';
import { HL7 } from './hl7.ts';
import { PLANTED_ERROR } from './planted-error.ts';

export { LOINC, SNOMED, ICD10CM, RXNORM, CVX, UCUM, FLOWSHEET, FORMULARY, HL7, PLANTED_ERROR };
export { codingOf, type CodeTable, type Coding } from './types.ts';
export { RXNORM_CONCEPTS, ingredientsOf } from './rxnorm.ts';

export const codeTables: readonly CodeTable[] = [LOINC, SNOMED, ICD10CM, RXNORM, CVX, UCUM, FLOWSHEET, FORMULARY, PLANTED_ERROR, ...Object.values(HL7)];

const bySystem = new Map<string, Map<string, string>>();
for (const table of codeTables) {
  const m = bySystem.get(table.system) ?? new Map<string, string>();
  for (const [code, display] of Object.entries(table.concepts)) m.set(code, display);
  bySystem.set(table.system, m);
}

/** The official display of system|code, or undefined when the code is not in our tables. */
export function lookupDisplay(system: string, code: string): string | undefined {
  return bySystem.get(system)?.get(code);
}
