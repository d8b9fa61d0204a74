// A direct evaluator for the small FHIRPath subset most search parameters, view columns and view `where` clauses use,
// over a plain parsed resource. fhirpath.js builds a typed node per step and costs tens of microseconds per expression
// and resource: too slow for indexing a seeded population or materializing a view over 200k Observations.
//
// One tokenizer, one parser and one walker serve two callers:
// - typed (search indexing): `Type.path` branches of SearchParameter expressions. Each member is resolved against the
//   FHIR R4 model once, at compile time (choice elements expanded to their typed keys), so every value comes with its
//   FHIR type. An expression outside the subset, or a member the model does not know, is not compiled: the caller
//   uses fhirpath.js.
// - plain (SQL on FHIR views): relative paths answered with the primitive values fhirpath.js gives with
//   resolveInternalTypes. Whenever the data could make fhirpath.js answer differently (an extension sibling `_x`, a
//   choice element reached without ofType, a non-plain value such as a precise decimal, a complex result) the walker
//   answers FALLBACK and the caller uses fhirpath.js for that resource, so results are the same by construction.
//
// The subset: member navigation, `x.ofType(T)` / `x.as(T)` / `(path as T)` on choice elements, `first()`, `exists()`,
// `where(a.b = 'text' and c = 'text')`, `where(resolve() is T)` (typed only: rewritten as a test on the reference
// string, since resolve() would need to fetch the target), `getResourceKey()` and `getReferenceKey([T])` (plain only,
// with the caller's implementation of those SQL on FHIR functions).
import r4model from 'fhirpath/fhir-context/r4';

/** A value found by an expression, with its FHIR type when known ('' = unknown: the indexer guesses by shape). */
export interface TypedValue {
  value: unknown;
  type: string;
}

export const FALLBACK = Symbol('fallback to fhirpath.js');
export type TypedPath = (resource: Record<string, unknown>) => TypedValue[];
export type PlainPath = (resource: object) => unknown[] | typeof FALLBACK;

/** The SQL on FHIR functions a plain path may call, as in fhirpath.js's userInvocationTable. */
export interface KeyFunctions {
  getResourceKey: { fn: (inputs: unknown[]) => unknown[] };
  getReferenceKey: { fn: (inputs: unknown[], type?: { name: string }) => unknown[] };
}

// ---------------------------------------------------------------------------------------------------------------
// Parsing

type Equality = { path: string[]; literal: string };
type Step =
  | { kind: 'member'; name: string }
  /** `ofType(T)`, `as(T)` or the `as` operator of `(path as T)`. */
  | { kind: 'type'; type: string; via: 'ofType' | 'as' }
  | { kind: 'where'; equals: Equality[] }
  | { kind: 'resolveIs'; type: string }
  | { kind: 'first' | 'exists' | 'resourceKey' }
  | { kind: 'referenceKey'; type?: string };

interface Parsed {
  /** The leading type name of `Patient.name` (the resource type the expression is for). */
  root?: string;
  steps: Step[];
}

const KEYWORDS = new Set(['and', 'or', 'xor', 'implies', 'as', 'is', 'div', 'mod', 'in', 'contains', 'true', 'false', 'not']);
// Keywords the FHIRPath grammar also accepts as identifiers: after a dot they are members (`expansion.contains`).
const MEMBER_KEYWORDS = new Set(['as', 'is', 'in', 'contains']);
const isName = (name: string | undefined, afterDot: boolean): name is string =>
  name !== undefined && (!KEYWORDS.has(name) || (afterDot && MEMBER_KEYWORDS.has(name)));
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

/** The expression as a root and steps, or undefined when it is outside the subset. */
function parse(expression: string): Parsed | undefined {
  const tokens = tokenize(expression);
  if (!tokens || tokens.length === 0) return undefined;
  let i = 0;
  const punct = (p: string) => tokens[i]?.punct === p;
  const ident = () => tokens[i]?.ident;

  /** Member names only (`a.b.c`), as the left side of an equality inside where(). */
  const members = (): string[] | undefined => {
    const names: string[] = [];
    for (;;) {
      const name = ident();
      if (!isName(name, names.length > 0) || /^[A-Z]/.test(name)) return undefined;
      i++;
      names.push(name);
      if (!punct('.')) return names;
      i++;
    }
  };

  /** The argument list of a function call, after its `(`; pushes the step. */
  const call = (name: string, steps: Step[], afterDot: boolean): boolean => {
    // where() filters something: not the bare input of a relative path.
    if (name === 'where' && (steps.length > 0 || afterDot)) {
      if (ident() === 'resolve' && tokens[i + 1]?.punct === '(' && tokens[i + 2]?.punct === ')' && tokens[i + 3]?.ident === 'is') {
        i += 4;
        const type = ident();
        if (!type || !/^[A-Z][A-Za-z]+$/.test(type)) return false;
        i++;
        steps.push({ kind: 'resolveIs', type });
        return true;
      }
      const equals: Equality[] = [];
      for (;;) {
        const path = members();
        if (!path || !punct('=')) return false;
        i++;
        const literal = tokens[i]?.text;
        if (literal === undefined || TEMPORAL.test(literal)) return false;
        i++;
        equals.push({ path, literal });
        if (ident() === 'and') { i++; continue; }
        break;
      }
      steps.push({ kind: 'where', equals });
      return true;
    }
    if (name === 'ofType' || name === 'as') {
      const type = ident();
      if (steps.length === 0 || type === undefined) return false;
      i++;
      steps.push({ kind: 'type', type, via: name });
      return true;
    }
    if (name === 'getReferenceKey') {
      const type = ident();
      if (type !== undefined) i++;
      steps.push({ kind: 'referenceKey', type });
      return true;
    }
    if (name === 'first' || name === 'exists' || name === 'getResourceKey') {
      steps.push({ kind: name === 'getResourceKey' ? 'resourceKey' : name });
      return true;
    }
    return false;
  };

  /** Steps separated by dots until the end or a token that is not a step. */
  const chain = (steps: Step[], afterDot: boolean): boolean => {
    for (;;) {
      const name = ident();
      // `as` is an operator, and a function when called (`value.as(Quantity)`).
      if (!isName(name, afterDot) && !(name === 'as' && tokens[i + 1]?.punct === '(')) return false;
      i++;
      if (punct('(')) {
        i++;
        if (!call(name, steps, afterDot) || !punct(')')) return false;
        i++;
      } else {
        // A capitalized step is a type name (`Patient.name` past the root): leave that to fhirpath.js.
        if (/^[A-Z]/.test(name)) return false;
        steps.push({ kind: 'member', name });
      }
      if (!punct('.')) return true;
      i++;
      afterDot = true;
    }
  };

  /** `Type.` at the start, or nothing. */
  const root = (): { root?: string; afterRoot: boolean } | undefined => {
    const name = ident();
    if (name === undefined || !/^[A-Z]/.test(name)) return { afterRoot: false };
    if (!/^[A-Z][A-Za-z]+$/.test(name)) return undefined;
    i++;
    if (i === tokens.length) return { root: name, afterRoot: true };
    if (!punct('.') || i + 1 === tokens.length) return undefined;
    i++;
    return { root: name, afterRoot: true };
  };

  const steps: Step[] = [];
  let start: { root?: string; afterRoot: boolean } | undefined;
  if (punct('(')) {
    // `(Type.path as T).more`
    i++;
    start = root();
    if (!start || !chain(steps, start.afterRoot) || ident() !== 'as') return undefined;
    i++;
    const type = ident();
    if (type === undefined || steps.length === 0) return undefined;
    i++;
    if (!punct(')')) return undefined;
    i++;
    steps.push({ kind: 'type', type, via: 'as' });
    if (punct('.')) {
      i++;
      if (!chain(steps, true)) return undefined;
    }
  } else {
    start = root();
    if (!start) return undefined;
    if (i < tokens.length && !chain(steps, start.afterRoot)) return undefined;
  }
  return i === tokens.length ? { root: start.root, steps } : undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// The R4 model, for typed paths

const model = r4model as unknown as {
  choiceTypePaths: Record<string, string[]>;
  path2Type: Record<string, string | { code: string }>;
  pathsDefinedElsewhere: Record<string, string>;
};

const PRIMITIVES = new Set([
  'boolean', 'integer', 'string', 'decimal', 'uri', 'url', 'canonical', 'base64Binary', 'instant', 'date', 'dateTime',
  'time', 'code', 'oid', 'id', 'markdown', 'unsignedInt', 'positiveInt', 'uuid',
]);

/** A type name as FHIR spells it: primitive types in lower camel case (`DateTime` -> dateTime). */
function typeName(raw: string): string {
  const lower = raw[0].toLowerCase() + raw.slice(1);
  return PRIMITIVES.has(lower) ? lower : raw;
}

/** The element type at `context.name` and the context for the next step (backbone elements keep their path). */
function stepType(context: string, name: string): { type: string; next: string } | undefined {
  for (const ctx of [context, 'DomainResource', 'Resource']) {
    let path = `${ctx}.${name}`;
    const elsewhere = model.pathsDefinedElsewhere[path];
    if (elsewhere) path = elsewhere;
    const found = model.path2Type[path];
    if (found === undefined) continue;
    const code = typeof found === 'string' ? found : found.code;
    if (code === 'BackboneElement' || code === 'Element') return { type: 'BackboneElement', next: path };
    const type = code.startsWith('System.') ? 'string' : code;
    return { type, next: type };
  }
  return undefined;
}

function choiceTypes(context: string, name: string): string[] | undefined {
  for (const ctx of [context, 'DomainResource', 'Resource']) {
    const found = model.choiceTypePaths[`${ctx}.${name}`];
    if (found) return found;
  }
  return undefined;
}

const choiceKey = (name: string, type: string) => name + type[0].toUpperCase() + type.slice(1);

// ---------------------------------------------------------------------------------------------------------------
// The walker

/**
 * A compiled step. `member` reads `keys` of each item (several for a choice element of a typed path); `checked`
 * makes it answer FALLBACK wherever fhirpath.js could see the data differently (the plain caller's policy).
 */
type Op =
  | { op: 'member'; name: string; keys: { key: string; type: string }[]; ofType?: string; checked: boolean }
  | { op: 'type'; type: string }
  | { op: 'where'; equals: { path: Op[]; literal: string }[]; checked: boolean }
  | { op: 'resolveIs'; type: string }
  | { op: 'first' | 'exists' }
  | { op: 'resourceKey'; fn: KeyFunctions['getResourceKey']['fn'] }
  | { op: 'referenceKey'; type?: string; fn: KeyFunctions['getReferenceKey']['fn'] };

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype;

/** Does a reference string point at a resource of `type` (relative, absolute or versioned)? */
function referenceHasType(reference: unknown, type: string): boolean {
  if (typeof reference !== 'string') return false;
  return reference.startsWith(type + '/') || reference.includes('/' + type + '/');
}

/** The nodes a walk has reached: values, and their FHIR types in a typed walk. */
interface Nodes {
  values: unknown[];
  types?: string[];
}

/** Appends `value` (each item of an array) unless absent; FALLBACK (checked) for a null inside an array. */
function append(out: Nodes, value: unknown, type: string, checked: boolean): boolean {
  if (Array.isArray(value)) {
    for (const v of value) {
      if (v === null || v === undefined) {
        if (checked) return false;
        continue;
      }
      out.values.push(v);
      out.types?.push(type);
    }
  } else if (value !== null && value !== undefined) {
    out.values.push(value);
    out.types?.push(type);
  }
  return true;
}

function member(step: Extract<Op, { op: 'member' }>, nodes: Nodes): Nodes | typeof FALLBACK {
  const out: Nodes = { values: [], types: nodes.types && [] };
  for (const item of nodes.values) {
    if (step.checked) {
      if (!isPlainObject(item)) return FALLBACK;
      const key = step.keys[0].key;
      if (('_' + key) in item) return FALLBACK;
      // Another key spelled `name` + Capital is a choice element (or a sibling fhirpath.js may treat as one).
      const name = step.name;
      for (const k in item) {
        if (k !== key && k.length > name.length && k.startsWith(name) && /[A-Z]/.test(k[name.length])) return FALLBACK;
      }
      if (step.ofType !== undefined && name in item) return FALLBACK;
      if (!append(out, item[key], step.keys[0].type, true)) return FALLBACK;
    } else if (!item || typeof item !== 'object') {
      continue;
    } else {
      for (const { key, type } of step.keys) append(out, (item as Record<string, unknown>)[key], type, false);
    }
  }
  return out;
}

function walk(ops: Op[], input: Nodes): Nodes | typeof FALLBACK {
  let nodes = input;
  for (const step of ops) {
    switch (step.op) {
      case 'member': {
        const next = member(step, nodes);
        if (next === FALLBACK) return FALLBACK;
        nodes = next;
        break;
      }
      case 'type': {
        const types = nodes.types!;
        const kept: Nodes = { values: [], types: [] };
        for (let i = 0; i < types.length; i++) if (types[i] === step.type) { kept.values.push(nodes.values[i]); kept.types!.push(types[i]); }
        nodes = kept;
        break;
      }
      case 'first':
        nodes = { values: nodes.values.slice(0, 1), types: nodes.types?.slice(0, 1) };
        break;
      case 'exists':
        nodes = { values: [nodes.values.length > 0], types: nodes.types && ['boolean'] };
        break;
      case 'resourceKey':
        if (!nodes.values.every(isPlainObject)) return FALLBACK;
        nodes = { values: step.fn(nodes.values) };
        break;
      case 'referenceKey':
        if (!nodes.values.every(isPlainObject)) return FALLBACK;
        nodes = { values: step.fn(nodes.values, step.type === undefined ? undefined : { name: step.type }) };
        break;
      case 'resolveIs':
      case 'where': {
        const kept: Nodes = { values: [], types: nodes.types && [] };
        for (let i = 0; i < nodes.values.length; i++) {
          const item = nodes.values[i];
          const keep = step.op === 'resolveIs'
            ? referenceHasType((item as { reference?: unknown } | null)?.reference, step.type)
            : matches(step, item);
          if (keep === FALLBACK) return FALLBACK;
          if (!keep) continue;
          kept.values.push(item);
          kept.types?.push(nodes.types![i]);
        }
        nodes = kept;
        break;
      }
    }
  }
  return nodes;
}

/** Does `item` satisfy every `path = 'literal'` of a where()? (One string equal to the literal, as in FHIRPath.) */
function matches(step: Extract<Op, { op: 'where' }>, item: unknown): boolean | typeof FALLBACK {
  if (step.checked && !isPlainObject(item)) return FALLBACK;
  let all = true;
  for (const { path, literal } of step.equals) {
    const left = walk(path, { values: [item] });
    if (left === FALLBACK) return FALLBACK;
    if (step.checked && left.values.some((v) => typeof v !== 'string')) return FALLBACK;
    if (left.values.length !== 1 || left.values[0] !== literal) all = false;
  }
  return all;
}

// ---------------------------------------------------------------------------------------------------------------
// The two callers

/**
 * A typed evaluator for a SearchParameter expression branch (`Type.path...`) over resources of `resourceType`, or
 * undefined when the branch is outside the subset or names an element the R4 model does not know.
 */
export function compileTypedPath(branch: string, resourceType: string): TypedPath | undefined {
  const parsed = parse(branch);
  if (!parsed || !(parsed.root === resourceType || parsed.root === 'Resource' || parsed.root === 'DomainResource')) return undefined;
  const typed = typedOps(parsed.steps, resourceType);
  if (!typed) return undefined;
  return (resource) => {
    const found = walk(typed.ops, { values: [resource], types: [resourceType] }) as Nodes;
    return found.values.map((value, i) => ({ value, type: found.types![i] }));
  };
}

/**
 * A typed evaluator for an expression relative to an element of a known type context (a composite search
 * parameter's component, `code` or `value.as(Quantity)`, over each `Observation` or `Observation.component` item).
 */
export function compileTypedRelative(expression: string, context: string): TypedPath | undefined {
  const parsed = parse(expression);
  if (!parsed || parsed.root !== undefined || parsed.steps.length === 0) return undefined;
  const typed = typedOps(parsed.steps, context);
  if (!typed) return undefined;
  return (item) => {
    const found = walk(typed.ops, { values: [item], types: [''] }) as Nodes;
    return found.values.map((value, i) => ({ value, type: found.types![i] }));
  };
}

/** The type context a typed branch's items have (`Observation` -> `Observation`, `Observation.component` -> its path). */
export function typedContextOf(branch: string, resourceType: string): string | undefined {
  const parsed = parse(branch);
  if (!parsed || parsed.root !== resourceType) return undefined;
  const typed = typedOps(parsed.steps, resourceType);
  return typed?.context || undefined;
}

// Types are resolved at compile time, so the walker does no model lookups per resource.
function typedOps(steps: Step[], start: string): { ops: Op[]; context: string } | undefined {
  const ops: Op[] = [];
  let context = start;
  for (const step of steps) {
    switch (step.kind) {
      case 'member': {
        const choices = choiceTypes(context, step.name);
        if (choices) {
          ops.push({ op: 'member', name: step.name, keys: choices.map((c) => ({ key: choiceKey(step.name, c), type: typeName(c) })), checked: false });
          context = '';
          break;
        }
        const found = context ? stepType(context, step.name) : undefined;
        if (!found) return undefined;
        ops.push({ op: 'member', name: step.name, keys: [{ key: step.name, type: found.type }], checked: false });
        context = found.next;
        break;
      }
      case 'type':
        if (!/^[A-Za-z]+$/.test(step.type)) return undefined;
        // A type after a choice fixes it; following members resolve against it.
        context = typeName(step.type);
        ops.push({ op: 'type', type: context });
        break;
      case 'where':
        // Indexing compares one member of each item (`telecom.where(system='phone')`).
        if (step.equals.length !== 1 || step.equals[0].path.length !== 1) return undefined;
        ops.push({ op: 'where', checked: false, equals: step.equals.map(({ path, literal }) => ({ literal, path: path.map((name) => untypedMember(name, false)) })) });
        break;
      case 'resolveIs':
        ops.push({ op: 'resolveIs', type: step.type });
        break;
      default:
        return undefined;
    }
  }
  return { ops, context };
}

/**
 * The top-level JSON keys a typed branch starts from (choice elements expanded: `value` -> `valueQuantity`, ...), so
 * the indexer can skip a parameter whose keys a resource lacks; undefined when any key may matter.
 */
export function typedPathRoots(branch: string, resourceType: string): string[] | undefined {
  const parsed = parse(branch);
  const first = parsed?.steps[0];
  if (!parsed?.root || first?.kind !== 'member') return undefined;
  const choices = choiceTypes(resourceType, first.name);
  return choices ? choices.map((c) => choiceKey(first.name, c)) : [first.name];
}

const untypedMember = (name: string, checked: boolean, ofType?: string): Op =>
  ({ op: 'member', name, keys: [{ key: ofType === undefined ? name : choiceKey(name, ofType), type: '' }], ofType, checked });

/**
 * A plain evaluator for a relative path (a view column or `where`), or undefined when the expression is outside the
 * subset. Results are primitive values as fhirpath.js gives them with resolveInternalTypes; FALLBACK otherwise.
 * `functions` are the getResourceKey/getReferenceKey implementations the caller gives fhirpath.js.
 */
export function compilePlainPath(expression: string, functions: KeyFunctions): PlainPath | undefined {
  const parsed = parse(expression);
  if (!parsed || parsed.root !== undefined || parsed.steps.length === 0) return undefined;
  const ops: Op[] = [];
  for (const step of parsed.steps) {
    switch (step.kind) {
      case 'member':
        ops.push(untypedMember(step.name, true));
        break;
      case 'type': {
        // ofType(T) reads the choice key `nameT` of the member before it.
        const last = ops.at(-1);
        if (step.via !== 'ofType' || last?.op !== 'member' || last.ofType !== undefined) return undefined;
        ops[ops.length - 1] = untypedMember(last.name, true, step.type);
        break;
      }
      case 'where':
        ops.push({ op: 'where', checked: true, equals: step.equals.map(({ path, literal }) => ({ literal, path: path.map((name) => untypedMember(name, true)) })) });
        break;
      case 'first':
      case 'exists':
        ops.push({ op: step.kind });
        break;
      case 'resourceKey':
        ops.push({ op: 'resourceKey', fn: functions.getResourceKey.fn });
        break;
      case 'referenceKey':
        ops.push({ op: 'referenceKey', type: step.type, fn: functions.getReferenceKey.fn });
        break;
      default:
        return undefined;
    }
  }
  return (resource) => {
    const result = walk(ops, { values: [resource] });
    if (result === FALLBACK) return FALLBACK;
    for (const v of result.values) if (typeof v !== 'string' && typeof v !== 'boolean' && !(typeof v === 'number' && Number.isFinite(v))) return FALLBACK;
    return result.values;
  };
}
