// Units for comparing a quoted value with the chart: spellings of one unit, analyte-specific conversions (glucose,
// creatinine, lipids mg/dL <-> mmol/L, A1c % <-> mmol/mol ...) from a data table, and the grader library's
// dimensional conversions (g/dL <-> g/L, mg <-> mcg) for everything else.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { convert } from '../lib/units.ts';

interface ConversionTable {
  equivalent: string[][];
  analytes: Record<string, { canonical: string; units: Record<string, { factor: number; offset?: number }> }>;
}

const table = JSON.parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'data', 'conversions.json'), 'utf8')) as ConversionTable;
const canonicalSpelling = new Map<string, string>();
for (const group of table.equivalent) for (const u of group) canonicalSpelling.set(u, group[0]);

/** Lower-cased, spaces dropped, spelling variants folded ("mm Hg" -> "mm[hg]", "K/uL" -> "10*3/ul"). */
export function unitKey(unit: string | undefined): string {
  const u = (unit ?? '').trim().toLowerCase().replace(/\s+/g, '');
  return canonicalSpelling.get(u) ?? u;
}

/** The analyte's canonical unit for a LOINC code (first one found among `codes`), if the table knows it. */
export function canonicalUnit(loincCodes: string[]): string | undefined {
  for (const c of loincCodes) if (table.analytes[c]) return table.analytes[c].canonical;
  return undefined;
}

/** `value` in `from` expressed in `to` for an analyte (LOINC codes), or undefined when they cannot be compared. */
export function convertValue(value: number, from: string | undefined, to: string | undefined, loincCodes: string[] = []): number | undefined {
  const a = unitKey(from);
  const b = unitKey(to);
  if (a === b) return value;
  for (const code of loincCodes) {
    const entry = table.analytes[code];
    if (!entry) continue;
    const toCanonical = (v: number, u: string): number | undefined => {
      if (u === unitKey(entry.canonical)) return v;
      const f = entry.units[u];
      if (f) return v * f.factor + (f.offset ?? 0);
      const generic = convert(v, u, entry.canonical);
      return generic;
    };
    const fromCanonical = (v: number, u: string): number | undefined => {
      if (u === unitKey(entry.canonical)) return v;
      const f = entry.units[u];
      if (f) return (v - (f.offset ?? 0)) / f.factor;
      return convert(v, entry.canonical, u);
    };
    const c = toCanonical(value, a);
    if (c === undefined) continue;
    const out = fromCanonical(c, b);
    if (out !== undefined) return out;
  }
  return convert(value, a, b);
}
