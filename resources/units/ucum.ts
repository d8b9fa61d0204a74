// Unit handling for doses and results. Every conversion goes through UCUM (@lhncbc/ucum-lhc, the library fhirpath
// already uses) after the spellings people and EHRs actually write ("milligrams", "MG", "mcg", "µg", "mEq", "units",
// "tablet") are folded to UCUM codes, so "0.5 g" equals "500 mg", "191 mg/dL" equals "1.91 g/L" and "98.6 °F" equals
// "37 Cel". What UCUM cannot do without a molar mass (glucose mg/dL <-> mmol/L) is not guessed here: the analyte
// table in ./analytes.ts does it.
import { createRequire } from 'node:module';

/** The part of the ucum-lhc API we use (the package ships no types). */
interface UcumUtils {
  convertUnitTo(from: string, value: number, to: string): { status: 'succeeded' | 'failed' | 'error'; toVal: number | null };
  validateUnitString(unit: string): { status: 'valid' | 'invalid' | 'error' };
}
const ucum = (createRequire(import.meta.url)('@lhncbc/ucum-lhc') as { UcumLhcUtils: { getInstance(): UcumUtils } }).UcumLhcUtils.getInstance();

// Whole-word spellings (lower-cased, spaces dropped) and their UCUM code. mEq is folded to mmol: equal for the
// monovalent ions (K, Na, Cl, HCO3) that labs and potassium orders state in either.
const SPELLINGS: Record<string, string> = {
  milligram: 'mg', milligrams: 'mg', mgs: 'mg', gram: 'g', grams: 'g', gm: 'g', gms: 'g', gr: '[gr]', grain: '[gr]', grains: '[gr]',
  kilogram: 'kg', kilograms: 'kg', kgs: 'kg', microgram: 'ug', micrograms: 'ug', mcg: 'ug', mcgs: 'ug', nanogram: 'ng', nanograms: 'ng',
  liter: 'L', litre: 'L', liters: 'L', litres: 'L', milliliter: 'mL', millilitre: 'mL', milliliters: 'mL', millilitres: 'mL', mls: 'mL', cc: 'mL',
  '[meq]': 'mmol', milliequivalent: 'mmol', milliequivalents: 'mmol', millimole: 'mmol', millimoles: 'mmol',
  unit: '[iU]', units: '[iU]', unt: '[iU]', u: '[iU]', iu: '[iU]', '[iu]': '[iU]', internationalunit: '[iU]', internationalunits: '[iU]',
  mu: 'm[iU]', miu: 'm[iU]', 'm[iu]': 'm[iU]', uiu: 'u[iU]', 'µiu': 'u[iU]', 'μiu': 'u[iU]', 'u[iu]': 'u[iU]',
  mmhg: 'mm[Hg]', 'mm[hg]': 'mm[Hg]', cmh2o: 'cm[H2O]', 'cm[h2o]': 'cm[H2O]',
  k: '10*3', thou: '10*3', '10^3': '10*3', 'x10^3': '10*3', '10*3': '10*3', '10^6': '10*6', 'x10^6': '10*6', '10*6': '10*6',
  '10^9': '10*9', 'x10^9': '10*9', '10*9': '10*9', '10^12': '10*12', 'x10^12': '10*12', '10*12': '10*12',
  cel: 'Cel', '°c': 'Cel', degc: 'Cel', c: 'Cel', '°f': '[degF]', degf: '[degF]', f: '[degF]', '[degf]': '[degF]',
  lb: '[lb_av]', lbs: '[lb_av]', pound: '[lb_av]', pounds: '[lb_av]', '[lb_av]': '[lb_av]', oz: '[oz_av]', '[oz_av]': '[oz_av]',
  in: '[in_i]', inch: '[in_i]', inches: '[in_i]', '[in_i]': '[in_i]', ft: '[ft_i]', '[ft_i]': '[ft_i]',
  percent: '%', '%': '%',
  sec: 's', second: 's', seconds: 's', minute: 'min', minutes: 'min', hr: 'h', hrs: 'h', hour: 'h', hours: 'h',
  day: 'd', days: 'd', week: 'wk', weeks: 'wk', month: 'mo', months: 'mo', yr: 'a', year: 'a', years: 'a',
  bpm: '/min', beat: '{beats}', beats: '{beats}', breath: '{breaths}', breaths: '{breaths}', 'm²': 'm2', '1.73m2': '{1.73_m2}', '1.73m²': '{1.73_m2}', '1.73_m2': '{1.73_m2}', '{1.73_m2}': '{1.73_m2}',
};

/**
 * Countable dose units (a tablet, a puff): UCUM annotations that all mean "1", so UCUM alone would make one tablet
 * equal one puff. Each spelling maps to one kind; counts of different kinds never convert into each other.
 */
const DOSE_UNIT_SPELLINGS: Record<string, string> = {
  ...Object.fromEntries(['tablet', 'tablets', 'tab', 'tabs', 'tbl', 'tbls', 'caplet', 'caplets', 'pill', 'pills'].map((w) => [w, '{tbl}'])),
  ...Object.fromEntries(['capsule', 'capsules', 'cap', 'caps', 'softgel', 'softgels'].map((w) => [w, '{capsule}'])),
  ...Object.fromEntries(['puff', 'puffs', 'actuation', 'actuations', 'actuat', 'inhalation', 'inhalations', 'spray', 'sprays'].map((w) => [w, '{actuat}'])),
  ...Object.fromEntries(['patch', 'patches'].map((w) => [w, '{patch}'])),
  ...Object.fromEntries(['suppository', 'suppositories', 'supp'].map((w) => [w, '{suppository}'])),
  ...Object.fromEntries(['drop', 'drops', 'gtt', 'gtts'].map((w) => [w, '{drop}'])),
  ...Object.fromEntries(['each', 'ea', 'dose', 'doses', 'unitdose', 'lozenge', 'lozenges', 'troche', 'packet', 'packets', 'sachet'].map((w) => [w, '{each}'])),
};

// UCUM prefixes and the atoms they combine with in medicine, lower-cased: "dl" -> "dL", "umol" -> "umol", "meq" -> "mmol".
const PREFIXES: Record<string, string> = { '': '', k: 'k', d: 'd', c: 'c', m: 'm', u: 'u', 'µ': 'u', 'μ': 'u', mc: 'u', n: 'n', p: 'p', f: 'f' };
const ATOMS: Record<string, string> = { g: 'g', l: 'L', mol: 'mol', eq: 'mol', kat: 'kat', m: 'm', s: 's' };
const PREFIXED = new Map<string, string>();
for (const [p, P] of Object.entries(PREFIXES)) for (const [a, A] of Object.entries(ATOMS)) PREFIXED.set(p + a, P + A);

/** A count of dose units ("{tbl}", "tablet", "TAB", "2 puffs"' unit): its kind, e.g. "{tbl}"; undefined otherwise. */
export function doseUnitKind(unit: string | undefined): string | undefined {
  const key = (unit ?? '').trim().toLowerCase().replace(/[\s(){}]/g, '');
  return DOSE_UNIT_SPELLINGS[key];
}

/** One '/'- or '.'-free piece of a unit, folded to its UCUM code; unknown pieces are kept as written. */
function foldPiece(piece: string): string {
  const key = piece.toLowerCase();
  return SPELLINGS[key] ?? DOSE_UNIT_SPELLINGS[key.replace(/[{}]/g, '')] ?? PREFIXED.get(key) ?? piece;
}

/**
 * The UCUM code of a unit as people write it: "milligrams" -> "mg", "MG" -> "mg", "mcg" -> "ug", "mEq/L" -> "mmol/L",
 * "K/uL" -> "10*3/uL", "units" -> "[iU]", "tablet" -> "{tbl}". Unknown spellings are returned trimmed, as written.
 */
export function ucumCode(unit: string | undefined): string {
  // Sentence punctuation after a quoted unit ("5.9 mmol/L.") is not part of it.
  const u = (unit ?? '').trim().replace(/\s+/g, '').replace(/[.,;:]+$/, '');
  if (!u) return '';
  const whole = SPELLINGS[u.toLowerCase()] ?? doseUnitKind(u);
  if (whole) return whole;
  // Split on '/' outside braces ("mL/min/{1.73_m2}"); a piece may itself be a known spelling.
  const pieces = u.split(/\/(?![^{]*\})/);
  return pieces.map((p, i) => (p === '' && i === 0 ? '' : foldPiece(p))).join('/');
}

/** Lower-cased, UCUM brackets and spaces dropped: "mEq/L" -> "meq/l", "{tbl}" -> "tbl", "Milligrams" -> "mg". */
export function normalizeUnit(unit: string | undefined): string {
  if (!unit) return '';
  return unit.trim().toLowerCase().replace(/\s+/g, '').split('/').map((part) => NORMALIZED_ALIASES[part] ?? part.replace(/[{}]/g, '')).join('/');
}

// The lower-cased comparison key normalizeUnit has always produced (answers compare "%" with it).
const NORMALIZED_ALIASES: Record<string, string> = {
  milligram: 'mg', milligrams: 'mg', gram: 'g', grams: 'g', microgram: 'mcg', micrograms: 'mcg', gm: 'g',
  '[meq]': 'meq', meq: 'meq', liter: 'l', litre: 'l', milliliter: 'ml', millilitre: 'ml', percent: '%',
};

// UCUM refuses to convert "arbitrary" units such as the international unit, even m[iU] to u[iU]. For one substance a
// prefix change is exact, so when both sides carry [iU] it is swapped for a stand-in unit no clinical unit uses.
const ARBITRARY_STAND_IN = 'cd';

/** value -> value in the target unit; null when the units cannot be compared. */
type Conversion = ((value: number) => number) | null;

/** The UCUM map from `a` to `b` (value * scale + offset: only temperatures have an offset), or null. */
function ucumConversion(a: string, b: string): Conversion {
  let from = a;
  let to = b;
  if (a.includes('[iU]') && b.includes('[iU]')) [from, to] = [a.replaceAll('[iU]', ARBITRARY_STAND_IN), b.replaceAll('[iU]', ARBITRARY_STAND_IN)];
  const at = (v: number) => {
    try {
      const r = ucum.convertUnitTo(from, v, to);
      return r.status === 'succeeded' && typeof r.toVal === 'number' ? r.toVal : undefined;
    } catch {
      return undefined; // ucum-lhc throws on some malformed strings; such a unit is simply not convertible
    }
  };
  const zero = at(0);
  const one = at(1);
  if (zero === undefined || one === undefined) return null;
  const scale = one - zero;
  // 12 significant digits: 0.1 g is 100 mg, not 100.00000000000001.
  return (value) => Number((value * scale + zero).toPrecision(12));
}

/** A pure count of dose units or a bare number: UCUM would call all of these "1" and equal to each other. */
function isCount(code: string): boolean {
  return /^\{[^}]*\}$/.test(code) || code === '1';
}

function conversionFor(from: string | undefined, to: string | undefined): Conversion {
  const a = ucumCode(from);
  const b = ucumCode(to);
  if (a === b || normalizeUnit(from) === normalizeUnit(to)) return (value) => value;
  if (!a || !b || isCount(a) || isCount(b)) return null;
  // UCUM reads % and mmol/mol as plain ratios (7 % = 70 mmol/mol), but HbA1c % (NGSP) to mmol/mol (IFCC) is a
  // different scale: a percentage converts only to a percentage.
  if (a === '%' || b === '%') return null;
  return ucumConversion(a, b);
}

// Graders convert the same few unit pairs over and over: each pair is folded and parsed by UCUM once.
const conversions = new Map<string, Conversion>();

/**
 * `value` in `from` expressed in `to`; undefined when the units measure different things (mass vs volume, mass vs
 * moles without a molar mass, a tablet vs a milligram). mEq and mmol are treated as equal, which holds for the
 * monovalent ions (K, Na, Cl, HCO3) that labs report in either.
 */
export function convert(value: number, from: string | undefined, to: string | undefined): number | undefined {
  const key = `${from ?? ''}\u0000${to ?? ''}`;
  let conversion = conversions.get(key);
  if (conversion === undefined) {
    if (conversions.size > 10000) conversions.clear();
    conversion = conversionFor(from, to);
    conversions.set(key, conversion);
  }
  return conversion === null ? undefined : conversion(value);
}

/** True when UCUM knows the unit once its spelling is folded ("milligrams", "mEq/L", "K/uL"). */
export function isKnownUnit(unit: string | undefined): boolean {
  const code = ucumCode(unit);
  if (!code) return false;
  try {
    return ucum.validateUnitString(code.replaceAll('[iU]', ARBITRARY_STAND_IN)).status === 'valid';
  } catch {
    return false;
  }
}

/** |actual - expected| within an absolute tolerance, or a relative one (0.1 = 10%) of the expected value. */
export function withinTolerance(actual: number, expected: number, tolerance: { absolute?: number; relative?: number } = {}): boolean {
  const allowed = Math.max(tolerance.absolute ?? 0, Math.abs(expected) * (tolerance.relative ?? 0), 1e-9 * Math.max(1, Math.abs(expected)));
  return Math.abs(actual - expected) <= allowed;
}
