// The dose a free-text sig states: "Take 2 tablets (200 mg) by mouth daily", "10mg PO daily", "0.5 mg",
// "take 2 tablets of metformin 500 mg twice daily". Amounts and counts of dose units are read separately, then
// combined the way the sentence means them: an amount in parentheses after the count is the total; an amount the
// count is "of" (or that precedes the count) is the strength of one unit. Anything else ambiguous is not guessed.
import { doseUnitKind, ucumCode } from '../../../resources/units/ucum.ts';

export interface SigDose {
  value: number;
  /** UCUM unit of an amount (mg, ug, [iU], mL), or the dose-unit kind of a count ({tbl}, {capsule}, {actuat}). */
  unit: string;
  /** How the text was read, for evidence. */
  reading: string;
}

const NUMBER = String.raw`(?<![\d.,/])(?:\d+(?:,\d{3})*(?:\.\d+)?|\.\d+)(?![\d/])`;
const WORD_COUNTS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, '½': 0.5, '1/2': 0.5 };
// "half a tablet", "1/2 tab", "one-half tablet", "½ tab".
const HALF = String.raw`(?:one[- ]half|a half|half|½|1\/2)(?:\s+(?:of\s+)?an?)?`;
const COUNT_NUMBER = String.raw`${NUMBER}|${HALF}|one|two|three|four`;
const AMOUNT_UNIT = String.raw`mg|mcg|µg|μg|ug|g|gm|grams?|milligrams?|micrograms?|units?|iu|meq|mmol|ml|cc|milliliters?|millilitres?`;
const COUNT_UNIT = String.raw`tablets?|tabs?|capsules?|caps?|caplets?|pills?|softgels?|puffs?|inhalations?|actuations?|sprays?|patch(?:es)?|suppositor(?:y|ies)|drops?|lozenges?|packets?`;

const AMOUNT = new RegExp(String.raw`(${NUMBER})\s*(${AMOUNT_UNIT})\b`, 'gi');
// A count not preceded by a range ("1-2 tablets", "1 to 2 tablets" are not one number: not read).
const COUNT = new RegExp(String.raw`(?<!\d\s*(?:-|to|or)\s*)(${COUNT_NUMBER})(\s*(?:-|to|or)\s*\d+)?\s*(${COUNT_UNIT})\b`, 'gi');

interface Found {
  value: number;
  unit: string;
  at: number;
  end: number;
}

function amounts(text: string): Found[] {
  return [...text.matchAll(AMOUNT)].map((m) => ({ value: Number(m[1].replace(/,/g, '')), unit: ucumCode(m[2]), at: m.index, end: m.index + m[0].length }));
}

function firstCount(text: string): (Found & { range: boolean }) | undefined {
  for (const m of text.matchAll(COUNT)) {
    const raw = m[1].toLowerCase();
    const value = /half|½|1\/2/.test(raw) ? 0.5 : WORD_COUNTS[raw] ?? Number(raw.replace(/,/g, ''));
    if (!Number.isFinite(value)) continue;
    return { value, unit: doseUnitKind(m[3]) ?? '{each}', at: m.index, end: m.index + m[0].length, range: !!m[2] };
  }
  return undefined;
}

/** An amount written right after a dosing verb ("take 20 mg", "inject 10 units"), else the first amount. */
function chosenAmount(text: string, found: Found[]): Found {
  const verb = /\b(take|give|inject|inhale|administer|use|apply|increase to|decrease to|reduce to|change to|start)\b/gi;
  for (const v of text.matchAll(verb)) {
    const after = found.find((a) => a.at >= v.index && a.at - (v.index + v[0].length) <= 3);
    if (after) return after;
  }
  return found[0];
}

/**
 * The dose per administration a sig states. `strengthOfUnit` (the amount in one dose unit of the counted kind, when
 * the product's strength is known) turns a count into an amount and settles "2 tablets 500 mg" (500 is the strength: 1000 mg; 1000 would be the
 * total). Undefined when the text states no dose, a range, or something ambiguous.
 */
export function doseInText(text: string | undefined, strengthOfUnit?: (kind: string) => { value: number; unit: string } | undefined): SigDose | undefined {
  if (!text) return undefined;
  const found = amounts(text);
  const count = firstCount(text);
  if (count?.range) return undefined;
  const strength = count ? strengthOfUnit?.(count.unit) : undefined;
  if (!count) {
    if (found.length === 0) return undefined;
    const a = chosenAmount(text, found);
    return { value: a.value, unit: a.unit, reading: `"${text.slice(a.at, a.end)}"` };
  }
  const times = (s: { value: number; unit: string }, why: string): SigDose => ({ value: count.value * s.value, unit: s.unit, reading: `${count.value} x ${s.value} ${s.unit} (${why})` });
  // "2 tablets (200 mg)", "2 tabs = 200 mg", "2 tablets, total 200 mg": the amount is the dose.
  const total = found.find((a) => a.at >= count.end && /^\s*(\(|=|,?\s*total(\s+of)?|for a total of)\s*(total\s*)?$/i.test(text.slice(count.end, a.at)));
  if (total) return { value: total.value, unit: total.unit, reading: `"${text.slice(count.at, total.end)}": the amount is the total` };
  // "20 mg (2 tablets)", "20 mg = 2 tabs": the same, written the other way round.
  const totalBefore = found.find((a) => a.end <= count.at && /^\s*(\(|=|,)?\s*$/.test(text.slice(a.end, count.at)));
  if (totalBefore) return { value: totalBefore.value, unit: totalBefore.unit, reading: `"${text.slice(totalBefore.at, count.end)}": the amount is the total` };
  // "2 tablets of (metformin) 500 mg", "500 mg tablets, take 2", "2 x 500 mg tablets": the amount is one unit's strength.
  const perUnit = found.find((a) => (a.at >= count.end && /\bof\b/i.test(text.slice(count.end, a.at)) && a.at - count.end <= 40)
    || (a.end <= count.at)
    || /^\s*(tablets?|tabs?|capsules?|caps?)\b/i.test(text.slice(a.end)));
  if (perUnit) return times(perUnit, 'the amount is the strength of one unit');
  const after = found.find((a) => a.at >= count.end);
  if (after && strength) {
    // "Take 2 tablets 500 mg": settled by the product's strength, else not read.
    const close = (x: number, y: number) => Math.abs(x - y) <= 1e-6 * Math.max(1, Math.abs(y));
    if (after.unit === strength.unit && close(after.value, count.value * strength.value)) return { value: after.value, unit: after.unit, reading: `"${text.slice(count.at, after.end)}": the total` };
    if (after.unit === strength.unit && close(after.value, strength.value)) return times(strength, 'the amount is the strength of one unit');
    return undefined;
  }
  if (after) return count.value === 1 ? { value: after.value, unit: after.unit, reading: `"${text.slice(count.at, after.end)}"` } : undefined;
  if (strength) return times(strength, "the product's strength");
  return { value: count.value, unit: count.unit, reading: `"${text.slice(count.at, count.end)}"` };
}
