// JSON parsing that keeps the precision of decimals: `1.0` stays a decimal with one decimal place (FHIR R4 2.6.0
// "decimal": trailing zeros are significant, e.g. for lowBoundary()). JSON.parse turns it into the number 1 before a
// reviver sees it, so number literals whose text a JS number would not reproduce are carried through as marked
// strings and rebuilt as fhirpath.js FP_Decimal values.
import fhirpath from 'fhirpath';

const TOKENS = /"(?:[^"\\]|\\.)*"|-?\d+\.\d+(?:[eE][+-]?\d+)?/g;
const MARK = '\u0000decimal:';

const FP_Decimal = (fhirpath as unknown as { FP_Decimal: { getDecimal(text: string): unknown } }).FP_Decimal;

export function parseJsonKeepingDecimals(text: string): unknown {
  let marked = false;
  const rewritten = text.replace(TOKENS, (token) => {
    if (token.startsWith('"') || String(Number(token)) === token) return token;
    marked = true;
    return JSON.stringify(MARK + token);
  });
  if (!marked) return JSON.parse(text);
  return JSON.parse(rewritten, (_key, value) =>
    typeof value === 'string' && value.startsWith(MARK) ? FP_Decimal.getDecimal(value.slice(MARK.length)) : value);
}

/** JSON text in which decimals parsed by parseJsonKeepingDecimals are written with their original digits. */
export function stringifyKeepingDecimals(value: unknown): string {
  // `this[key]` is the value before its toJSON() ran (FP_Decimal's toJSON gives a plain number).
  const text = JSON.stringify(value, function (this: Record<string, unknown>, key: string, v: unknown) {
    const original = this[key];
    return original !== null && typeof original === 'object' && 'asStr' in original && original.constructor?.name.startsWith('_FP_Decimal')
      ? MARK + String(original.asStr)
      : v;
  });
  return text.replace(/"\\u0000decimal:(-?[\d.eE+-]+)"/g, '$1');
}
