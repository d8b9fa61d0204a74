// Units for comparing a quoted value with the chart. Only what is specific to an analyte lives here (data table:
// glucose, creatinine, lipids mg/dL <-> mmol/L, A1c % <-> mmol/mol - conversions that need a molar mass or a
// non-linear scale, and the unit a bare number is read in); spellings and every dimensional conversion (g/dL <-> g/L,
// mg <-> mcg, degF <-> Cel, lb <-> kg, mEq/L <-> mmol/L) are UCUM's, through ./ucum.ts.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { convert, ucumCode } from './ucum.ts';

interface Factor {
  factor: number;
  offset?: number;
}

interface AnalyteTable {
  analytes: Record<string, { canonical: string; units: Record<string, Factor> }>;
}

/** One key per unit whatever its spelling: "mEq/L", "mmol/l" and "MMOL/L" share one; "K/uL" and "10*3/uL" too. */
export function unitKey(unit: string | undefined): string {
  return ucumCode(unit).toLowerCase();
}

const table = JSON.parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'analytes.json'), 'utf8')) as AnalyteTable;
// The table's units re-keyed by unitKey, so a chart's "umol/L" or "µmol/L" finds the "umol/l" row.
const analytes = new Map(Object.entries(table.analytes).map(([code, entry]) => [
  code,
  { canonical: entry.canonical, units: new Map(Object.entries(entry.units).map(([u, f]) => [unitKey(u), f])) },
]));

/** The analyte's canonical unit for a LOINC code (first one found among `codes`), if the table knows it. */
export function canonicalUnit(loincCodes: string[]): string | undefined {
  for (const c of loincCodes) {
    const entry = analytes.get(c);
    if (entry) return entry.canonical;
  }
  return undefined;
}

/** `value` in `from` expressed in `to` for an analyte (LOINC codes), or undefined when they cannot be compared. */
export function convertValue(value: number, from: string | undefined, to: string | undefined, loincCodes: string[] = []): number | undefined {
  if (unitKey(from) === unitKey(to)) return value;
  for (const code of loincCodes) {
    const entry = analytes.get(code);
    if (!entry) continue;
    // Through the analyte's canonical unit: its own factor when the table has one, else UCUM (mg/L -> mg/dL).
    const toCanonical = (v: number, u: string | undefined): number | undefined => {
      const f = entry.units.get(unitKey(u));
      return f ? v * f.factor + (f.offset ?? 0) : convert(v, u, entry.canonical);
    };
    const fromCanonical = (v: number, u: string | undefined): number | undefined => {
      const f = entry.units.get(unitKey(u));
      return f ? (v - (f.offset ?? 0)) / f.factor : convert(v, entry.canonical, u);
    };
    const c = toCanonical(value, from);
    if (c === undefined) continue;
    const out = fromCanonical(c, to);
    if (out !== undefined) return out;
  }
  return convert(value, from, to);
}
