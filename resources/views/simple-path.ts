// A direct evaluator for the small FHIRPath subset most view columns and `where` clauses use, over a plain parsed
// resource: member navigation (`subject.reference`), `x.ofType(T)` on a choice element, `first()`, `exists()`,
// `getResourceKey()`, `getReferenceKey([T])` and `where(a.b = 'text' and c = 'text')`. fhirpath.js builds a typed
// node per step and costs tens of microseconds per expression and resource; materializing a view over 200k
// Observations spent most of its time there. Whenever the data could make fhirpath.js answer differently (an
// extension sibling `_x`, a choice element reached without ofType, a non-plain value such as a precise decimal, a
// complex result) the evaluator answers FALLBACK and the caller uses fhirpath.js for that resource, so results are
// the same by construction. Expressions outside the subset are not compiled here at all.
import { viewFunctions } from './fhirpath-functions.ts';

export const FALLBACK = Symbol('fallback to fhirpath.js');
export type SimplePath = (resource: object) => unknown[] | typeof FALLBACK;

type Step =
  | { kind: 'member'; name: string; ofType?: string }
  | { kind: 'first' | 'exists' | 'resourceKey' }
  | { kind: 'referenceKey'; type?: string }
  | { kind: 'where'; equals: { path: Step[]; literal: string }[] };

const KEYWORDS = new Set(['and', 'or', 'xor', 'implies', 'as', 'is', 'div', 'mod', 'in', 'contains', 'true', 'false', 'not']);
// Literals fhirpath.js might compare as dates or times rather than as text.
const TEMPORAL = /^(\d{4}(-\d{2}(-\d{2})?)?(T.*)?|T?\d{2}(:\d{2}.*)?)$/;
const TOKEN = /\s*(?:([A-Za-z_][A-Za-z0-9_]*)|'([^'\\]*)'|([.()=]))/y;

type Token = { ident?: string; text?: string; punct?: string };

function tokenize(expression: string): Token[] | undefined {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < expression.length) {
    if (/^\s*$/.test(expression.slice(TOKEN.lastIndex))) break;
    const m = TOKEN.exec(expression);
    if (!m) return undefined;
    tokens.push(m[1] !== undefined ? { ident: m[1] } : m[2] !== undefined ? { text: m[2] } : { punct: m[3] });
  }
  return tokens;
}

/** The expression as steps, or undefined when it is outside the subset. */
function parse(tokens: Token[]): Step[] | undefined {
  let i = 0;
  const punct = (p: string) => tokens[i]?.punct === p;
  const path = (inWhere: boolean): Step[] | undefined => {
    const steps: Step[] = [];
    for (;;) {
      const name = tokens[i]?.ident;
      if (name === undefined || KEYWORDS.has(name)) return undefined;
      i++;
      if (punct('(')) {
        i++;
        if (inWhere) return undefined;
        if (name === 'where' && steps.length > 0) {
          const equals: { path: Step[]; literal: string }[] = [];
          for (;;) {
            const left = path(true);
            if (!left || !punct('=')) return undefined;
            i++;
            const literal = tokens[i]?.text;
            if (literal === undefined || TEMPORAL.test(literal)) return undefined;
            i++;
            equals.push({ path: left, literal });
            if (tokens[i]?.ident === 'and') { i++; continue; }
            break;
          }
          steps.push({ kind: 'where', equals });
        } else if (name === 'ofType') {
          const last = steps.at(-1);
          const type = tokens[i]?.ident;
          if (!last || last.kind !== 'member' || last.ofType || !type) return undefined;
          i++;
          last.ofType = type;
        } else if (name === 'getReferenceKey') {
          const type = tokens[i]?.ident;
          if (type !== undefined) i++;
          steps.push({ kind: 'referenceKey', type });
        } else if (name === 'first' || name === 'exists' || name === 'getResourceKey') {
          steps.push({ kind: name === 'getResourceKey' ? 'resourceKey' : name });
        } else {
          return undefined;
        }
        if (!punct(')')) return undefined;
        i++;
      } else {
        // A capitalized first step is a type name (`Patient.name`): leave that to fhirpath.js.
        if (/^[A-Z]/.test(name)) return undefined;
        steps.push({ kind: 'member', name });
      }
      if (!punct('.')) return steps;
      i++;
    }
  };
  const steps = path(false);
  return steps && i === tokens.length ? steps : undefined;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype;

/** Values of `name` (or of the choice element `name` as type T) in each item; FALLBACK when fhirpath.js might differ. */
function member(items: unknown[], name: string, ofType: string | undefined): unknown[] | typeof FALLBACK {
  const out: unknown[] = [];
  const key = ofType === undefined ? name : name + ofType[0].toUpperCase() + ofType.slice(1);
  for (const item of items) {
    if (!isPlainObject(item)) return FALLBACK;
    if (('_' + key) in item) return FALLBACK;
    // Another key spelled `name` + Capital is a choice element (or a sibling fhirpath.js may treat as one).
    for (const k in item) {
      if (k !== key && k.length > name.length && k.startsWith(name) && /[A-Z]/.test(k[name.length])) return FALLBACK;
    }
    if (ofType !== undefined && name in item) return FALLBACK;
    const value = item[key];
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      for (const v of value) {
        if (v === null || v === undefined) return FALLBACK;
        out.push(v);
      }
    } else {
      out.push(value);
    }
  }
  return out;
}

function run(steps: Step[], input: unknown[]): unknown[] | typeof FALLBACK {
  let items = input;
  for (const step of steps) {
    switch (step.kind) {
      case 'member': {
        const next = member(items, step.name, step.ofType);
        if (next === FALLBACK) return FALLBACK;
        items = next;
        break;
      }
      case 'first':
        items = items.slice(0, 1);
        break;
      case 'exists':
        items = [items.length > 0];
        break;
      case 'resourceKey':
        if (!items.every(isPlainObject)) return FALLBACK;
        items = viewFunctions.getResourceKey.fn(items);
        break;
      case 'referenceKey':
        if (!items.every(isPlainObject)) return FALLBACK;
        items = viewFunctions.getReferenceKey.fn(items, step.type === undefined ? undefined : { name: step.type });
        break;
      case 'where': {
        const kept: unknown[] = [];
        for (const item of items) {
          if (!isPlainObject(item)) return FALLBACK;
          let all = true;
          for (const { path, literal } of step.equals) {
            const left = run(path, [item]);
            if (left === FALLBACK) return FALLBACK;
            if (left.some((v) => typeof v !== 'string')) return FALLBACK;
            if (left.length !== 1 || left[0] !== literal) all = false;
          }
          if (all) kept.push(item);
        }
        items = kept;
        break;
      }
    }
  }
  return items;
}

/**
 * A direct evaluator for `expression` over a plain resource, or undefined when the expression is outside the
 * subset. Results are primitive values as fhirpath.js gives them with resolveInternalTypes; FALLBACK otherwise.
 */
export function compileSimplePath(expression: string): SimplePath | undefined {
  const tokens = tokenize(expression);
  const steps = tokens && tokens.length > 0 ? parse(tokens) : undefined;
  if (!steps) return undefined;
  return (resource) => {
    const result = run(steps, [resource]);
    if (result === FALLBACK) return FALLBACK;
    for (const v of result) if (typeof v !== 'string' && typeof v !== 'boolean' && !(typeof v === 'number' && Number.isFinite(v))) return FALLBACK;
    return result;
  };
}
