// The one reader of whole-number request parameters (`_count`, `_offset`, `_limit`, `count`, `offset`, row limits):
// digits only (Number('1e3') or ' 12' are not what a client meant), within bounds, else a 400 naming the parameter.
import { invalidParameter } from './outcome.ts';

export interface IntegerBounds {
  min?: number;
  max?: number;
  /** Cap at max instead of refusing a larger value (a page past the end is empty anyway). */
  capAtMax?: boolean;
}

/** The parameter's whole-number value, undefined when it is absent (or empty), or a 400 OperationOutcome. */
export function integerParameter(name: string, raw: string | number | boolean | undefined, bounds: IntegerBounds = {}): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  const min = bounds.min ?? 0;
  const max = bounds.max ?? Number.MAX_SAFE_INTEGER;
  const text = String(raw).trim();
  const valid = typeof raw === 'number' ? Number.isInteger(raw) : /^-?\d+$/.test(text);
  // Beyond 2^53 a JS number is no longer exact (and SQLite rejects it as a LIMIT/OFFSET): such a value is capped.
  const n = valid ? Math.min(Math.max(Number(text), -Number.MAX_SAFE_INTEGER), Number.MAX_SAFE_INTEGER) : NaN;
  if (valid && n > max && bounds.capAtMax) return max;
  if (!valid || n < min || n > max) {
    const range = max !== Number.MAX_SAFE_INTEGER ? `an integer from ${min} to ${max}` : min === 0 ? 'a non-negative integer' : min === 1 ? 'a positive integer' : `an integer >= ${min}`;
    throw invalidParameter(`${name} must be ${range}, not '${String(raw)}'`, [name]);
  }
  return n;
}
