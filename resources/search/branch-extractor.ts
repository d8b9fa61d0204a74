// Evaluating a SearchParameter's FHIRPath expression branch against a resource, fast.
// Most R4 expressions are simple dotted paths (`Observation.subject`, `(Observation.value as Quantity)`,
// `X.telecom.where(system='phone')`, `X.subject.where(resolve() is Patient)`); those are compiled into a tiny
// walker over the JSON (fhirpath.js costs tens of microseconds per call, too slow for seeding). Anything else falls
// back to fhirpath.js with the R4 model; `resolve() is T` is rewritten to a test on the reference string, since
// resolve() would need to fetch the target.
import fhirpath from 'fhirpath';
import r4model from 'fhirpath/fhir-context/r4';

/** A value found by an expression, with its FHIR type when known ('' = unknown: the extractor guesses by shape). */
export interface TypedValue {
  value: unknown;
  type: string;
}

export type Extractor = (resource: Record<string, unknown>) => TypedValue[];

const model = r4model as unknown as {
  choiceTypePaths: Record<string, string[]>;
  path2Type: Record<string, string | { code: string }>;
  pathsDefinedElsewhere: Record<string, string>;
};

const PRIMITIVES = new Set([
  'boolean', 'integer', 'string', 'decimal', 'uri', 'url', 'canonical', 'base64Binary', 'instant', 'date', 'dateTime',
  'time', 'code', 'oid', 'id', 'markdown', 'unsignedInt', 'positiveInt', 'uuid',
]);

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

type Step =
  | { kind: 'field'; name: string }
  | { kind: 'as'; type: string }
  | { kind: 'whereEq'; field: string; value: string }
  | { kind: 'refType'; type: string };

/** Parse a branch into steps after its leading resource type, or undefined when it is not a simple path. */
function parseSimple(branch: string): { root: string; steps: Step[] } | undefined {
  let text = branch.trim();
  let asType: string | undefined;
  let rest = '';
  const paren = /^\((.+) as ([A-Za-z]+)\)((?:\.[A-Za-z]+)*)$/.exec(text);
  if (paren) {
    text = paren[1];
    asType = paren[2];
    rest = paren[3];
  }
  const parts = text.split('.');
  const root = parts.shift();
  if (!root || !/^[A-Z][A-Za-z]+$/.test(root)) return undefined;
  const steps: Step[] = [];
  for (const part of parts) {
    let m: RegExpExecArray | null;
    if (/^[a-z][A-Za-z]*$/.test(part)) steps.push({ kind: 'field', name: part });
    else if ((m = /^as\(([A-Za-z]+)\)$/.exec(part))) steps.push({ kind: 'as', type: m[1] });
    else if ((m = /^where\(resolve\(\) is ([A-Z][A-Za-z]+)\)$/.exec(part))) steps.push({ kind: 'refType', type: m[1] });
    else if ((m = /^where\(([a-z][A-Za-z]*) ?= ?'([^']*)'\)$/.exec(part))) steps.push({ kind: 'whereEq', field: m[1], value: m[2] });
    else return undefined;
  }
  if (asType) steps.push({ kind: 'as', type: asType });
  for (const part of rest.split('.').filter(Boolean)) steps.push({ kind: 'field', name: part });
  return { root, steps };
}

/** Does a reference string point at a resource of `type` (relative, absolute or versioned)? */
export function referenceHasType(reference: unknown, type: string): boolean {
  if (typeof reference !== 'string') return false;
  return reference.startsWith(type + '/') || reference.includes('/' + type + '/');
}

/**
 * The top-level JSON keys a branch starts from (choice elements expanded: `value` -> `valueQuantity`, ...), so the
 * indexer can skip a parameter whose keys the resource lacks; undefined when any key may matter.
 */
export function branchRoots(branch: string, resourceType: string): string[] | undefined {
  const simple = parseSimple(branch);
  if (!simple || simple.steps.length === 0 || simple.steps[0].kind !== 'field') return undefined;
  const name = simple.steps[0].name;
  const choices = choiceTypes(resourceType, name);
  return choices ? choices.map((c) => name + c[0].toUpperCase() + c.slice(1)) : [name];
}

/** Compile one branch (`Type.path...`) for resources of `resourceType`. */
export function compileBranch(branch: string, resourceType: string): Extractor {
  const simple = parseSimple(branch);
  if (simple && (simple.root === resourceType || simple.root === 'Resource' || simple.root === 'DomainResource')) {
    const compiled = compileSteps(simple.steps, resourceType);
    if (compiled) return compiled;
  }
  return compileWithFhirpath(branch);
}

function compileSteps(steps: Step[], resourceType: string): Extractor | undefined {
  // Resolve types statically so the walker does no model lookups per resource.
  type Plan =
    | { kind: 'field'; name: string; type: string; choices?: { key: string; type: string }[] }
    | { kind: 'as'; type: string }
    | { kind: 'whereEq'; field: string; value: string }
    | { kind: 'refType'; type: string };
  const plan: Plan[] = [];
  let context = resourceType;
  for (const step of steps) {
    if (step.kind === 'field') {
      const choices = choiceTypes(context, step.name);
      if (choices) {
        plan.push({ kind: 'field', name: step.name, type: '', choices: choices.map((c) => ({ key: step.name + c[0].toUpperCase() + c.slice(1), type: typeName(c) })) });
        context = '';
        continue;
      }
      const found = context ? stepType(context, step.name) : undefined;
      if (!found) return undefined;
      plan.push({ kind: 'field', name: step.name, type: found.type });
      context = found.next;
    } else {
      if (step.kind === 'as') {
        // `as` after a choice fixes the type; following fields resolve against it.
        context = typeName(step.type);
      }
      plan.push(step.kind === 'as' ? { kind: 'as', type: typeName(step.type) } : step);
    }
  }
  return (resource) => {
    let nodes: TypedValue[] = [{ value: resource, type: resourceType }];
    for (const step of plan) {
      const next: TypedValue[] = [];
      switch (step.kind) {
        case 'field':
          for (const node of nodes) {
            const obj = node.value as Record<string, unknown>;
            if (!obj || typeof obj !== 'object') continue;
            if (step.choices) {
              for (const choice of step.choices) {
                const v = obj[choice.key];
                if (v !== undefined) push(next, v, choice.type);
              }
            } else {
              const v = obj[step.name];
              if (v !== undefined) push(next, v, step.type);
            }
          }
          break;
        case 'as':
          for (const node of nodes) if (node.type === step.type) next.push(node);
          break;
        case 'whereEq':
          for (const node of nodes) if ((node.value as Record<string, unknown>)?.[step.field] === step.value) next.push(node);
          break;
        case 'refType':
          for (const node of nodes) if (referenceHasType((node.value as { reference?: unknown })?.reference, step.type)) next.push(node);
          break;
      }
      nodes = next;
      if (nodes.length === 0) break;
    }
    return nodes;
  };
}

function push(out: TypedValue[], value: unknown, type: string): void {
  if (Array.isArray(value)) {
    for (const item of value) if (item !== null && item !== undefined) out.push({ value: item, type });
  } else if (value !== null) {
    out.push({ value, type });
  }
}

function compileWithFhirpath(branch: string): Extractor {
  const rewritten = branch.replace(/\.where\(resolve\(\) is ([A-Z][A-Za-z]+)\)/g, ".where(reference.startsWith('$1/') or reference.contains('/$1/'))");
  let fn: ((resource: unknown) => unknown[]) | undefined;
  try {
    fn = fhirpath.compile(rewritten, r4model as never) as unknown as (resource: unknown) => unknown[];
  } catch {
    return () => [];
  }
  const extract: Extractor = (resource) => {
    try {
      return (fn!(resource) ?? []).map((value) => ({ value, type: '' }));
    } catch {
      return [];
    }
  };
  (extract as { fallback?: boolean }).fallback = true;
  return extract;
}
