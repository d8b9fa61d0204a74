// The local formulary: drugs the tasks accept whose RxNorm code could not be read from a source (UNCODED_INGREDIENTS in
// ./rxnorm/brands.ts: no public source quoted it, or the drug has no current US product). Real EHRs carry such local
// medication codes beside RxNorm; here they make every accepted drug findable by name and brand through the
// terminology service, without inventing an RXCUI. Code = the ingredient's name; display names its brands.
import type { CodeTable } from './types.ts';
import { BRAND_NAMES, UNCODED_INGREDIENTS } from './rxnorm/brands.ts';

/** An uncoded ingredient's brands: its own, and the combination brands that hold it (Epclusa for sofosbuvir). */
const brandsOf = (name: string): string[] => [
  ...UNCODED_INGREDIENTS[name], ...Object.entries(BRAND_NAMES).filter(([, ingredients]) => ingredients.includes(name)).map(([brand]) => brand),
];

export const FORMULARY: CodeTable = {
  system: 'http://ehr-gym.example/fhir/CodeSystem/formulary',
  title: 'ehr-gym local formulary (drugs without an RxNorm code here)',
  concepts: Object.fromEntries(Object.keys(UNCODED_INGREDIENTS).map((name) => [name, brandsOf(name).length > 0 ? `${name} (${brandsOf(name).join(', ')})` : name])),
};
