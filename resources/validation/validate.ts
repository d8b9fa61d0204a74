// Validation of FHIR R4 resources against the official JSON Schema: one validator per resource type (see
// validators.ts), errors reported as OperationOutcome issues with FHIRPath expressions. Nested resources (contained,
// Bundle.entry.resource, Bundle.entry.response.outcome, Parameters.parameter[.part].resource) are validated with
// their own type's validator, so their errors carry paths such as "Bundle.entry[0].resource.name[0].given[1]".
import type { OperationOutcomeIssue } from '@medplum/fhirtypes';
import { R4_RESOURCE_TYPES } from './resource-types.ts';
import { loadValidators, type AjvError, type ValidatorSet } from './validators.ts';
import { EXTRA_RESOURCE_TYPES, isExtraResourceType, validateExtraType } from './extra-resource-types.ts';
import { ID_RULE, isValidId } from './id.ts';
import { referenceProblems, referenceSites, type ReferenceSite } from './references.ts';

type IssueCode = OperationOutcomeIssue['code'];

/** The resource types this server stores, sorted: the R4 ones and the extra ones (extra-resource-types.json). */
export const resourceTypes: readonly string[] = Object.freeze(
  [...R4_RESOURCE_TYPES, ...EXTRA_RESOURCE_TYPES.map((t) => t.type)].sort(),
);
const known = new Set(resourceTypes);

export function isKnownResourceType(type: string): boolean {
  return known.has(type);
}

let validators: ValidatorSet | undefined;
function getValidators(): ValidatorSet {
  return (validators ??= loadValidators(R4_RESOURCE_TYPES));
}

/**
 * Load (or generate, on the first run after install or a schema change) the validators now rather than on the
 * first validation. Returns where they came from: 'cache', 'generated' or 'memory'.
 */
export function warmUpValidation(): ValidatorSet['source'] {
  return getValidators().source;
}

const MAX_DEPTH = 16;

/** The Reference elements of a resource and its contained resources whose `reference` is set (see references.ts). */
export function resourceReferenceSites(resource: { resourceType: string }): ReferenceSite[] {
  const root = resource as unknown as Record<string, unknown>;
  return referenceSites(root, resource.resourceType, resource.resourceType, getValidators().elementTypes);
}

/** All errors of a resource, [] when it is valid. */
export function validateResource(resource: unknown): OperationOutcomeIssue[] {
  const issues: OperationOutcomeIssue[] = [];
  if (!isPlainObject(resource)) {
    issues.push(mkIssue('structure', `A resource must be a JSON object, not ${describeType(resource)}`));
    return issues;
  }
  const type = resource.resourceType;
  if (type === undefined) {
    issues.push(mkIssue('required', 'The resource has no resourceType'));
    return issues;
  }
  if (typeof type !== 'string' || !known.has(type)) {
    issues.push(mkIssue('value', `Unknown resourceType ${JSON.stringify(type)}`));
    return issues;
  }
  validateTyped(resource, type, type, issues, 0, false);
  return dedupe(issues);
}

function validateTyped(
  resource: Record<string, unknown>,
  type: string,
  root: string,
  issues: OperationOutcomeIssue[],
  depth: number,
  contained: boolean,
): void {
  if (isExtraResourceType(type)) {
    issues.push(...validateExtraType(resource, type, root));
    checkId(resource, root, issues);
    walkNested(resource, type, root, issues, depth);
    return;
  }
  const validate = getValidators().get(type);
  if (!validate) {
    issues.push(mkIssue('not-supported', `No validator for resource type ${type}`, [root]));
    return;
  }
  let idReported = false;
  if (!validate(resource)) {
    const errors = validate.errors ?? [];
    // Paths with a type error: other errors about the same value (pattern, enum) are noise.
    const typeErrorPaths = new Set(errors.filter((e) => e.keyword === 'type').map((e) => e.instancePath));
    for (const e of errors) {
      if (e.keyword !== 'type' && typeErrorPaths.has(e.instancePath) && e.keyword !== 'additionalProperties') continue;
      if (e.instancePath === '/id') idReported = true;
      issues.push(toIssue(e, resource, root));
    }
  }
  // Beyond the schema: its id regex lets `.` and `..` through.
  if (!idReported) checkId(resource, root, issues);
  // A contained resource's references are checked with its container's (they share the `#id` scope).
  if (!contained) {
    for (const { site, diagnostics } of referenceProblems(resource, type, root, getValidators().elementTypes, isKnownResourceType)) {
      const path = `${site.path}.reference`;
      issues.push(mkIssue('value', `${path}: ${diagnostics}`, [path]));
    }
  }
  walkNested(resource, type, root, issues, depth);
}

function checkId(resource: Record<string, unknown>, root: string, issues: OperationOutcomeIssue[]): void {
  if (resource.id !== undefined && !isValidId(resource.id)) {
    issues.push(mkIssue('value', `${root}.id: ${JSON.stringify(resource.id)} is not a valid id (${ID_RULE})`, [`${root}.id`]));
  }
}

function walkNested(
  resource: Record<string, unknown>,
  type: string,
  root: string,
  issues: OperationOutcomeIssue[],
  depth: number,
): void {
  const nested = (value: unknown, path: string, contained = false) => {
    // Non-objects and missing resourceType are reported by the schema (definition ResourceList).
    if (!isPlainObject(value) || typeof value.resourceType !== 'string') return;
    if (!known.has(value.resourceType)) {
      issues.push(mkIssue('value', `${path}: unknown resourceType ${JSON.stringify(value.resourceType)}`, [path]));
    } else if (depth + 1 > MAX_DEPTH) {
      issues.push(mkIssue('structure', `${path}: resources nested too deeply`, [path]));
    } else {
      validateTyped(value, value.resourceType, path, issues, depth + 1, contained);
    }
  };
  const each = (value: unknown, f: (item: Record<string, unknown>, i: number) => void) => {
    if (Array.isArray(value)) value.forEach((item, i) => isPlainObject(item) && f(item, i));
  };

  each(resource.contained, (r, i) => nested(r, `${root}.contained[${i}]`, true));
  if (type === 'Bundle') {
    each(resource.entry, (entry, i) => {
      nested(entry.resource, `${root}.entry[${i}].resource`);
      if (isPlainObject(entry.response)) nested(entry.response.outcome, `${root}.entry[${i}].response.outcome`);
    });
  } else if (type === 'Parameters') {
    const params = (list: unknown, path: string, level: number) =>
      each(list, (p, i) => {
        nested(p.resource, `${path}[${i}].resource`);
        if (level < MAX_DEPTH) params(p.part, `${path}[${i}].part`, level + 1);
      });
    params(resource.parameter, `${root}.parameter`, 0);
  }
}

// ---- ajv error -> OperationOutcome issue -------------------------------------------------------------------------

function toIssue(e: AjvError, resource: Record<string, unknown>, root: string): OperationOutcomeIssue {
  const segments = e.instancePath === '' ? [] : e.instancePath.slice(1).split('/').map(unescapePointer);
  let path = root;
  for (const s of segments) path += /^\d+$/.test(s) ? `[${s}]` : `.${s}`;
  const value = segments.reduce<unknown>((v, s) => (v as any)?.[s], resource);

  switch (e.keyword) {
    case 'additionalProperties': {
      const p = `${path}.${e.params.additionalProperty}`;
      return mkIssue('structure', `${p}: unknown element '${e.params.additionalProperty}'`, [p]);
    }
    case 'required':
    case 'fhirRequired': {
      const p = `${path}.${e.params.missingProperty}`;
      return mkIssue('required', `${p}: missing required element '${e.params.missingProperty}'`, [p]);
    }
    case 'type':
      return mkIssue('structure', `${path}: expected ${article(e.params.type)} but found ${describeType(value)}`, [path]);
    case 'pattern': {
      const fhirType = getValidators().patternType(e.params.pattern);
      const what = fhirType ? `is not a valid ${fhirType}` : `does not match ${e.params.pattern}`;
      return mkIssue('value', `${path}: ${JSON.stringify(value)} ${what}`, [path]);
    }
    case 'enum':
      return mkIssue(
        'value',
        `${path}: ${JSON.stringify(value)} is not one of ${(e.params.allowedValues as unknown[]).join(', ')}`,
        [path],
      );
    case 'const':
      return mkIssue('value', `${path}: ${JSON.stringify(value)} must be ${JSON.stringify(e.params.allowedValue)}`, [
        path,
      ]);
    default:
      return mkIssue('structure', `${path}: ${e.message ?? e.keyword}`, [path]);
  }
}

function dedupe(issues: OperationOutcomeIssue[]): OperationOutcomeIssue[] {
  const seen = new Set<string>();
  return issues.filter((i) => {
    const k = `${i.code}|${i.expression?.join()}|${i.diagnostics}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

function mkIssue(code: IssueCode, diagnostics: string, expression?: string[]): OperationOutcomeIssue {
  const out: OperationOutcomeIssue = { severity: 'error', code, diagnostics };
  if (expression) out.expression = expression;
  return out;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function describeType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 60 ? `${v.slice(0, 60)}...` : v)}`;
  if (v === undefined) return 'nothing';
  return `${typeof v} ${String(v)}`;
}

function article(type: string): string {
  return type === 'object' || type === 'array' || type === 'integer' ? `an ${type}` : `a ${type}`;
}

function unescapePointer(s: string): string {
  return s.replace(/~1/g, '/').replace(/~0/g, '~');
}
