// Unit handling for doses and results: mass (kg/g/mg/mcg/ng), volume (L/dL/mL) and their ratios. Units are compared
// after conversion, so "0.5 g" equals "500 mg" and "191 mg/dL" equals "1.91 g/L".

const MASS: Record<string, number> = { kg: 1e3, g: 1, mg: 1e-3, mcg: 1e-6, ug: 1e-6, 'µg': 1e-6, ng: 1e-9 };
const VOLUME: Record<string, number> = { l: 1, dl: 0.1, ml: 1e-3 };
const AMOUNT: Record<string, number> = { mol: 1, mmol: 1e-3, umol: 1e-6, 'µmol': 1e-6, meq: 1e-3 };

const ALIASES: Record<string, string> = {
  milligram: 'mg', milligrams: 'mg', gram: 'g', grams: 'g', microgram: 'mcg', micrograms: 'mcg', gm: 'g',
  '[meq]': 'meq', 'meq': 'meq', liter: 'l', litre: 'l', milliliter: 'ml', millilitre: 'ml',
};

/** Lower-cased, UCUM brackets and spaces dropped: "mEq/L" -> "meq/l", "{tbl}" -> "tbl", "Milligrams" -> "mg". */
export function normalizeUnit(unit: string | undefined): string {
  if (!unit) return '';
  return unit.trim().toLowerCase().replace(/\s+/g, '').split('/').map((part) => ALIASES[part] ?? part.replace(/[{}]/g, '')).join('/');
}

function factor(unit: string): { dim: string; f: number } | undefined {
  const parts = normalizeUnit(unit).split('/');
  if (parts.length > 2) return undefined;
  const num = parts[0];
  let dim: string;
  let f: number;
  if (MASS[num] !== undefined) [dim, f] = ['mass', MASS[num]];
  else if (AMOUNT[num] !== undefined) [dim, f] = ['amount', AMOUNT[num]];
  else if (VOLUME[num] !== undefined) [dim, f] = ['volume', VOLUME[num]];
  else [dim, f] = [num, 1];
  if (parts.length === 2) {
    const den = parts[1];
    if (VOLUME[den] !== undefined) return { dim: `${dim}/volume`, f: f / VOLUME[den] };
    if (MASS[den] !== undefined) return { dim: `${dim}/mass`, f: f / MASS[den] };
    return { dim: `${dim}/${den}`, f };
  }
  return { dim, f };
}

/**
 * `value` in `from` expressed in `to`; undefined when the units measure different things. mEq and mmol are treated
 * as equal, which holds for the monovalent ions (K, Na, Cl, HCO3) that labs report in either.
 */
export function convert(value: number, from: string | undefined, to: string | undefined): number | undefined {
  const a = normalizeUnit(from);
  const b = normalizeUnit(to);
  if (a === b) return value;
  const fa = factor(a);
  const fb = factor(b);
  if (!fa || !fb || fa.dim !== fb.dim) return undefined;
  return (value * fa.f) / fb.f;
}

/** |actual - expected| within an absolute tolerance, or a relative one (0.1 = 10%) of the expected value. */
export function withinTolerance(actual: number, expected: number, tolerance: { absolute?: number; relative?: number } = {}): boolean {
  const allowed = Math.max(tolerance.absolute ?? 0, Math.abs(expected) * (tolerance.relative ?? 0), 1e-9 * Math.max(1, Math.abs(expected)));
  return Math.abs(actual - expected) <= allowed;
}
