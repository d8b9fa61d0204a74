// FHIRPath functions SQL on FHIR v2 adds or pins down, as a fhirpath.js `userInvocationTable`:
// getResourceKey() and getReferenceKey([type]) ("Required additional functions"), and lowBoundary()/highBoundary()
// with the FHIRPath 3.0 rules for values without a time zone (low uses +14:00, high uses -12:00), which fhirpath.js
// leaves out.
import fhirpath from 'fhirpath';
import { compileClientRegex, type SafeRegex } from '../safe-regex.ts';

type Node = { data?: unknown; fhirNodeDataType?: string; path?: string } | unknown;

const { util } = fhirpath as unknown as { util: { valData(node: unknown): unknown } };

function valueOf(node: Node): unknown {
  return util.valData(node);
}

function nodeType(node: Node): string | undefined {
  if (typeof node !== 'object' || node === null) return undefined;
  const n = node as { fhirNodeDataType?: string; constructor: { name: string } };
  if (n.fhirNodeDataType) return n.fhirNodeDataType;
  switch (n.constructor.name) {
    case 'FP_DateTime': return 'dateTime';
    case 'FP_Date': return 'date';
    case 'FP_Time': return 'time';
    default: return undefined;
  }
}

/** The key of a resource: its id (opaque to view users; getReferenceKey gives the same value for references to it). */
function getResourceKey(inputs: Node[]): unknown[] {
  const out: unknown[] = [];
  for (const node of inputs) {
    const resource = valueOf(node) as { resourceType?: unknown; id?: unknown } | undefined;
    if (resource && typeof resource.id === 'string') out.push(resource.id);
  }
  return out;
}

/** `Type/id`, `http://base/Type/id` and `Type/id/_history/n` all reduce to the target's key; a type filter applies. */
function getReferenceKey(inputs: Node[], type?: { name?: string }): unknown[] {
  const out: unknown[] = [];
  for (const node of inputs) {
    const reference = (valueOf(node) as { reference?: unknown } | undefined)?.reference;
    if (typeof reference !== 'string') continue;
    const match = /(?:^|\/)([A-Z][A-Za-z]+)\/([A-Za-z0-9\-.]{1,64})(?:\/_history\/[^/]+)?$/.exec(reference);
    if (!match) continue;
    if (type?.name && match[1] !== type.name) continue;
    out.push(match[2]);
  }
  return out;
}

const DATE_TIME = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?(?:T(\d{2})(?::(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?)?(Z|[+-]\d{2}:\d{2})?$/;
const TIME = /^T?(\d{2})(?::(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?$/;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function boundary(node: Node, high: boolean): unknown {
  const value = valueOf(node);
  const type = nodeType(node);
  if (typeof value === 'number' || type === 'decimal' || type === 'integer') return decimalBoundary(value, high, type);
  const text = typeof value === 'string' ? value : value?.toString();
  if (typeof text !== 'string') return undefined;
  if (type === 'time' || (type === undefined && TIME.test(text))) return timeBoundary(text, high);
  const m = DATE_TIME.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, ms, tz] = m;
  const year = Number(y);
  const month = mo ?? (high ? '12' : '01');
  const day = d ?? (high ? String(daysInMonth(year, Number(month))).padStart(2, '0') : '01');
  if (type === 'date' || (type === undefined && !text.includes('T') && tz === undefined)) return `${y}-${month}-${day}`;
  const hour = h ?? (high ? '23' : '00');
  const minute = mi ?? (high ? '59' : '00');
  const second = s ?? (high ? '59' : '00');
  const millis = ms ? ms.padEnd(3, high ? '9' : '0').slice(0, 3) : high ? '999' : '000';
  return `${y}-${month}-${day}T${hour}:${minute}:${second}.${millis}${tz ?? (high ? '-12:00' : '+14:00')}`;
}

function timeBoundary(text: string, high: boolean): string | undefined {
  const m = TIME.exec(text);
  if (!m) return undefined;
  const [, h, mi, s, ms] = m;
  const millis = ms ? ms.padEnd(3, high ? '9' : '0').slice(0, 3) : high ? '999' : '000';
  return `${h}:${mi ?? (high ? '59' : '00')}:${s ?? (high ? '59' : '00')}.${millis}`;
}

/** Half a unit of the last significant digit either side (FHIRPath 3.0 "lowBoundary"). */
function decimalBoundary(value: unknown, high: boolean, type: string | undefined): number | undefined {
  // A precise FP_Decimal (from a lossless parse) keeps the source digits in asStr.
  const text = typeof value === 'object' && value !== null && 'asStr' in value ? String(value.asStr) : String(value);
  if (!/^-?\d+(\.\d+)?$/.test(text)) return undefined;
  const n = Number(text);
  if (type === 'integer' && typeof value === 'number') return n;
  const decimals = text.includes('.') ? text.split('.')[1].length : 0;
  const half = 0.5 * 10 ** -decimals;
  return Number((high ? n + half : n - half).toFixed(decimals + 1));
}

// matches(), matchesFull() and replaceMatches() take the view author's pattern: RE2 (resources/safe-regex.ts, linear
// time) in place of fhirpath.js's backtracking RegExp, on which `(.|.)*#` over every resource held the server.
const compiledPatterns = new Map<string, SafeRegex>();

function viewRegex(pattern: string, flags: string | undefined, fn: string): SafeRegex {
  if (flags !== undefined && !/^[im]*$/.test(flags)) throw new Error(`${fn}() flags must only contain i and/or m`);
  const key = `${flags ?? ''}/${pattern}`;
  let re = compiledPatterns.get(key);
  if (!re) {
    re = compileClientRegex(pattern, `FHIRPath ${fn}()`, flags);
    if (compiledPatterns.size >= 200) compiledPatterns.delete(compiledPatterns.keys().next().value!);
    compiledPatterns.set(key, re);
  }
  return re;
}

/** FHIRPath's singleton string input: empty stays empty, several is an error. */
function singleString(inputs: unknown[], fn: string): string | undefined {
  if (inputs.length === 0) return undefined;
  if (inputs.length > 1) throw new Error(`${fn}() expects a single string, got ${inputs.length} items`);
  return String(inputs[0]);
}

function regexMatch(fn: 'matches' | 'matchesFull') {
  return (inputs: unknown[], pattern?: string, flags?: string): unknown[] => {
    const subject = singleString(inputs, fn);
    if (subject === undefined || pattern === undefined) return [];
    const re = viewRegex(pattern, flags, fn);
    return [fn === 'matches' ? re.matchesPart(subject) : re.matchesAll(subject)];
  };
}

function replaceMatches(inputs: unknown[], pattern?: string, substitution?: string): unknown[] {
  const subject = singleString(inputs, 'replaceMatches');
  if (subject === undefined || pattern === undefined || substitution === undefined) return [];
  return [viewRegex(pattern, undefined, 'replaceMatches').replaceAll(subject, substitution)];
}

export const viewFunctions = {
  getResourceKey: { fn: getResourceKey, arity: { 0: [] } },
  getReferenceKey: { fn: getReferenceKey, arity: { 0: [], 1: ['TypeSpecifier'] } },
  // internalStructures: receive the nodes themselves, whose FHIR type tells a date from a dateTime.
  lowBoundary: { fn: (inputs: Node[]) => inputs.map((n) => boundary(n, false)).filter((v) => v !== undefined), arity: { 0: [] }, internalStructures: true },
  highBoundary: { fn: (inputs: Node[]) => inputs.map((n) => boundary(n, true)).filter((v) => v !== undefined), arity: { 0: [] }, internalStructures: true },
  // FHIRPath join() of an empty collection is the empty string, not empty (SQL on FHIR "string join" cases).
  join: { fn: (inputs: unknown[], separator = '') => [inputs.map(String).join(separator)], arity: { 0: [], 1: ['String'] } },
  matches: { fn: regexMatch('matches'), arity: { 1: ['String'], 2: ['String', 'String'] } },
  matchesFull: { fn: regexMatch('matchesFull'), arity: { 1: ['String'], 2: ['String', 'String'] } },
  replaceMatches: { fn: replaceMatches, arity: { 2: ['String', 'String'] } },
};
