// "Normalize for the index": one function per search parameter type turning the values an expression found into
// index rows (FHIR R4 3.1.1.4 search parameter types; which data types each type covers is the table in 3.1.1.4).
import { dateRange, MAX_TIME, MIN_TIME, type Range } from './dates.ts';
import type { TypedValue } from '../fhirpath/fast-path.ts';

type Obj = Record<string, unknown>;

/** Case- and accent-insensitive form used for string matching (3.1.1.4.7 "string"). */
export function normalizeText(text: string): string {
  // eslint-disable-next-line no-control-regex
  if (!/[^\x00-\x7f]/.test(text)) return text.toLowerCase();
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

export interface StringRow { value: string; exact: string }
export interface TokenRow { system: string | null; code: string | null; text: string | null; ofType: string | null }
export interface ReferenceRow { targetType: string | null; targetId: string | null; url: string | null }
export interface QuantityRow { value: number; system: string | null; code: string | null; unit: string | null }

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);

function shapeOf(tv: TypedValue): string {
  if (tv.type) return tv.type;
  const v = tv.value;
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'boolean';
  if (typeof v === 'number') return 'decimal';
  if (!v || typeof v !== 'object') return '';
  const o = v as Obj;
  if ('coding' in o || ('text' in o && Object.keys(o).length <= 2 && !('div' in o))) return 'CodeableConcept';
  if ('reference' in o || ('identifier' in o && 'display' in o)) return 'Reference';
  if ('family' in o || 'given' in o) return 'HumanName';
  if ('line' in o || 'city' in o || 'postalCode' in o || 'country' in o) return 'Address';
  if ('start' in o || 'end' in o) return 'Period';
  if ('low' in o || 'high' in o) return 'Range';
  if ('event' in o || 'repeat' in o) return 'Timing';
  if ('value' in o && typeof o.value === 'number') return 'Quantity';
  if ('value' in o && ('type' in o || 'assigner' in o || 'period' in o)) return 'Identifier';
  if ('value' in o && 'system' in o && /^(phone|fax|email|pager|url|sms|other)$/.test(String(o.system))) return 'ContactPoint';
  if ('value' in o) return 'Identifier';
  if ('code' in o || 'system' in o) return 'Coding';
  return '';
}

// Helpers take `out` instead of closing over it: these functions run for every indexed value, and under tsx each
// inner closure created costs a defineProperty call (esbuild's keepNames).
function addString(out: StringRow[], v: unknown): void {
  if (typeof v === 'string' && v.length > 0) out.push({ value: normalizeText(v), exact: v });
}

export function stringRows(values: TypedValue[]): StringRow[] {
  const out: StringRow[] = [];
  for (const tv of values) {
    const o = tv.value as Obj;
    switch (shapeOf(tv)) {
      case 'HumanName': {
        // Any part matches (3.1.1.4.7); the assembled name lets "John Smith" match too.
        addString(out, o.family); addString(out, o.text);
        for (const k of ['given', 'prefix', 'suffix']) if (Array.isArray(o[k])) for (const p of o[k] as unknown[]) addString(out, p);
        const given = Array.isArray(o.given) ? (o.given as string[]).join(' ') : '';
        if (given && typeof o.family === 'string') addString(out, `${given} ${o.family}`);
        break;
      }
      case 'Address':
        addString(out, o.text); addString(out, o.city); addString(out, o.district); addString(out, o.state); addString(out, o.postalCode); addString(out, o.country);
        if (Array.isArray(o.line)) for (const p of o.line as unknown[]) addString(out, p);
        break;
      case 'CodeableConcept':
        addString(out, o.text);
        break;
      default:
        if (typeof tv.value === 'string') addString(out, tv.value);
    }
  }
  return out;
}

function addCoding(out: TokenRow[], c: Obj, text: string | null): void {
  if (!c || typeof c !== 'object') return;
  const display = str(c.display);
  out.push({ system: str(c.system) ?? null, code: str(c.code) ?? null, text: display ? normalizeText(display) : text, ofType: null });
}

export function tokenRows(values: TypedValue[]): TokenRow[] {
  const out: TokenRow[] = [];
  for (const tv of values) {
    const v = tv.value;
    const o = v as Obj;
    switch (shapeOf(tv)) {
      case 'CodeableConcept': {
        const text = str(o.text) ? normalizeText(o.text as string) : null;
        if (Array.isArray(o.coding)) for (const c of o.coding as Obj[]) addCoding(out, c, text);
        if (text) out.push({ system: null, code: null, text, ofType: null });
        break;
      }
      case 'Coding':
        addCoding(out, o, null);
        break;
      case 'Identifier': {
        const typeText = o.type && str((o.type as Obj).text) ? normalizeText((o.type as Obj).text as string) : null;
        out.push({ system: str(o.system) ?? null, code: str(o.value) ?? null, text: typeText, ofType: null });
        // `:of-type` matches type system|code|value (3.1.1.4.10 "of-type").
        const typeCodings = o.type && Array.isArray((o.type as Obj).coding) ? ((o.type as Obj).coding as Obj[]) : [];
        for (const c of typeCodings) {
          if (str(c.code) && str(o.value)) out.push({ system: null, code: null, text: null, ofType: `${c.system ?? ''}|${c.code}|${o.value}` });
        }
        break;
      }
      case 'ContactPoint':
        out.push({ system: str(o.system) ?? null, code: str(o.value) ?? null, text: null, ofType: null });
        break;
      case 'boolean':
        out.push({ system: null, code: String(v), text: null, ofType: null });
        break;
      case 'Quantity':
        if (str(o.code)) out.push({ system: str(o.system) ?? null, code: o.code as string, text: null, ofType: null });
        break;
      case 'Reference':
        break;
      default:
        if (typeof v === 'string' || typeof v === 'number') out.push({ system: null, code: String(v), text: null, ofType: null });
        else if (typeof v === 'boolean') out.push({ system: null, code: String(v), text: null, ofType: null });
    }
  }
  return out;
}

export function dateRows(values: TypedValue[]): Range[] {
  const out: Range[] = [];
  for (const tv of values) {
    const v = tv.value;
    if (typeof v === 'string') {
      const r = dateRange(v);
      if (r) out.push(r);
      continue;
    }
    const o = v as Obj;
    switch (shapeOf(tv)) {
      case 'Period': {
        const s = typeof o.start === 'string' ? dateRange(o.start) : undefined;
        const e = typeof o.end === 'string' ? dateRange(o.end) : undefined;
        if (s || e) out.push({ start: s?.start ?? MIN_TIME, end: e?.end ?? MAX_TIME });
        break;
      }
      case 'Timing': {
        // A Timing covers its events and its repeat bounds.
        const points: Range[] = [];
        if (Array.isArray(o.event)) for (const e of o.event) { const r = typeof e === 'string' ? dateRange(e) : undefined; if (r) points.push(r); }
        const bounds = (o.repeat as Obj | undefined)?.boundsPeriod as Obj | undefined;
        if (bounds) {
          const s = typeof bounds.start === 'string' ? dateRange(bounds.start) : undefined;
          const e = typeof bounds.end === 'string' ? dateRange(bounds.end) : undefined;
          if (s || e) points.push({ start: s?.start ?? MIN_TIME, end: e?.end ?? MAX_TIME });
        }
        if (points.length > 0) out.push({ start: Math.min(...points.map((p) => p.start)), end: Math.max(...points.map((p) => p.end)) });
        break;
      }
    }
  }
  return out;
}

/** Local target and literal URL of a reference (FHIR R4 3.1.1.4.9 "reference"). */
export function referenceRows(values: TypedValue[]): { refs: ReferenceRow[]; identifiers: TokenRow[] } {
  const refs: ReferenceRow[] = [];
  const identifiers: TokenRow[] = [];
  for (const tv of values) {
    const v = tv.value;
    if (typeof v === 'string') {
      // canonical / uri targets are matched by URL.
      refs.push({ targetType: null, targetId: null, url: v });
      continue;
    }
    const o = v as Obj;
    if (!o || typeof o !== 'object') continue;
    const ref = str(o.reference);
    // A reference by identifier or display only still makes the element present (for :missing).
    refs.push(ref ? parseReference(ref) : { targetType: null, targetId: null, url: null });
    const ident = o.identifier as Obj | undefined;
    if (ident && typeof ident === 'object') identifiers.push({ system: str(ident.system) ?? null, code: str(ident.value) ?? null, text: null, ofType: null });
  }
  return { refs, identifiers };
}

const TYPED = /^(?:(.*)\/)?([A-Z][A-Za-z]+)\/([A-Za-z0-9\-.]{1,64})(?:\/_history\/[A-Za-z0-9\-.]{1,64})?$/;

/** `Type/id`, `http://x/fhir/Type/id[/_history/n]`, or a URL/urn with no parsed target. */
export function parseReference(ref: string): ReferenceRow {
  const m = TYPED.exec(ref);
  if (m && (m[1] === undefined || /^https?:\/\//.test(m[1]))) {
    return { targetType: m[2], targetId: m[3], url: m[1] === undefined ? null : ref };
  }
  return { targetType: null, targetId: null, url: ref };
}

function addQuantity(out: QuantityRow[], q: Obj | undefined): void {
  if (q && typeof q.value === 'number') {
    out.push({ value: q.value, system: str(q.system) ?? null, code: str(q.code) ?? str(q.currency) ?? null, unit: str(q.unit) ?? null });
  }
}

export function quantityRows(values: TypedValue[]): QuantityRow[] {
  const out: QuantityRow[] = [];
  for (const tv of values) {
    const o = tv.value as Obj;
    if (!o || typeof o !== 'object') continue;
    if (shapeOf(tv) === 'Range') { addQuantity(out, o.low as Obj); addQuantity(out, o.high as Obj); } else addQuantity(out, o);
  }
  return out;
}

export function numberRows(values: TypedValue[]): number[] {
  const out: number[] = [];
  for (const tv of values) {
    const v = tv.value;
    if (typeof v === 'number') out.push(v);
    else if (v && typeof v === 'object' && typeof (v as Obj).value === 'number') out.push((v as Obj).value as number);
  }
  return out;
}

export function uriRows(values: TypedValue[]): string[] {
  return values.map((tv) => tv.value).filter((v): v is string => typeof v === 'string');
}
