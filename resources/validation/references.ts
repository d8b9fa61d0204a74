// Reference elements (FHIR R4 2.3.0 "Resource References"): where they are in an instance, found by walking it
// with the schema's element types (so Observation.subject, Extension.valueReference, Identifier.assigner... without a
// list of paths), and what their `reference` string says. Pure functions; the server's checks against storage are in
// server/interactions/write-checks.ts.
import type { ElementTypes } from './validators.ts';
import { isValidId } from './id.ts';

/** A Reference element whose `reference` is set. */
export interface ReferenceSite {
  /** FHIRPath of the Reference element, e.g. `Observation.component[0].valueReference`. */
  path: string;
  reference: string;
  /** The Reference element itself (its `type`, `display`...). */
  element: Record<string, unknown>;
}

/** What a `reference` string is, by its form alone (2.3.0.3 literal references, 3.1.0.11.3 conditional ones). */
export type ParsedReference =
  /** `Type/id` or `Type/id/_history/vid`, relative to the server's base. */
  | { kind: 'relative'; type: string; id: string; version?: string }
  /** `#id`: a resource in the container's `contained`; `#` alone is the container. */
  | { kind: 'contained'; id: string }
  /** `urn:uuid:` / `urn:oid:`: the fullUrl of another entry of the same Bundle. */
  | { kind: 'placeholder' }
  /** `Type?criteria`: resolved by a transaction to the one resource matching. */
  | { kind: 'conditional'; type: string; criteria: string }
  /** Any other absolute URI (another server, or this one's base + Type/id). */
  | { kind: 'absolute' }
  | { kind: 'malformed'; problem: string };

const RELATIVE = /^([A-Z][A-Za-z]*)\/([^/]*)(?:\/_history\/([^/]*))?$/;
const CONDITIONAL = /^([A-Z][A-Za-z]*)\?(.*)$/s;
const UUID = /^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const OID = /^urn:oid:[0-2](\.(0|[1-9][0-9]*))+$/;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

const FORMS = 'Type/id, Type/id/_history/vid, #contained-id or an absolute URL';

export function parseReference(reference: string, isResourceType: (type: string) => boolean): ParsedReference {
  if (reference.startsWith('#')) {
    const id = reference.slice(1);
    return id === '' || isValidId(id) ? { kind: 'contained', id } : { kind: 'malformed', problem: `'${id}' is not a valid contained id` };
  }
  if (/^urn:(uuid|oid):/i.test(reference)) {
    return UUID.test(reference) || OID.test(reference)
      ? { kind: 'placeholder' }
      : { kind: 'malformed', problem: 'it is neither a urn:uuid: followed by a UUID nor a urn:oid: followed by an OID' };
  }
  const conditional = CONDITIONAL.exec(reference);
  if (conditional) {
    const [, type, criteria] = conditional;
    if (!isResourceType(type)) return { kind: 'malformed', problem: `'${type}' is not a resource type` };
    if (criteria.trim() === '') return { kind: 'malformed', problem: `search criteria are missing after '${type}?'` };
    return { kind: 'conditional', type, criteria };
  }
  if (SCHEME.test(reference)) return { kind: 'absolute' };
  const relative = RELATIVE.exec(reference);
  if (!relative) return { kind: 'malformed', problem: `expected ${FORMS}` };
  const [, type, id, version] = relative;
  if (!isResourceType(type)) return { kind: 'malformed', problem: `'${type}' is not a resource type` };
  if (!isValidId(id)) return { kind: 'malformed', problem: id === '' ? `the id is missing after '${type}/'` : `'${id}' is not a valid id` };
  if (version !== undefined && !isValidId(version)) return { kind: 'malformed', problem: `'${version}' is not a valid version id` };
  return version === undefined ? { kind: 'relative', type, id } : { kind: 'relative', type, id, version };
}

/**
 * The Reference elements of `resource` (of definition `type`) whose `reference` is set, its contained resources'
 * included (they share the container's `#id` scope). Other nested resources (Bundle.entry.resource,
 * Parameters.parameter.resource) are left out: each is a resource of its own, with its own scope. Values of the
 * wrong shape are skipped (the schema reports them).
 */
export function referenceSites(resource: Record<string, unknown>, type: string, root: string, elementTypes: ElementTypes): ReferenceSite[] {
  const sites: ReferenceSite[] = [];
  const walk = (value: unknown, def: string, path: string, topLevel: boolean): void => {
    if (Array.isArray(value)) {
      value.forEach((item, i) => walk(item, def, `${path}[${i}]`, topLevel));
      return;
    }
    if (!isPlainObject(value)) return;
    if (def === 'Reference' && typeof value.reference === 'string') sites.push({ path, reference: value.reference, element: value });
    const elements = elementTypes[def];
    if (!elements) return;
    for (const key of Object.keys(value)) {
      const child = elements[key];
      if (!child) continue;
      if (child !== 'ResourceList') walk(value[key], child, `${path}.${key}`, topLevel);
      else if (key === 'contained' && topLevel && Array.isArray(value[key])) {
        (value[key] as unknown[]).forEach((r, i) => {
          if (isPlainObject(r) && typeof r.resourceType === 'string') walk(r, r.resourceType, `${path}.contained[${i}]`, false);
        });
      }
    }
  };
  walk(resource, type, root, true);
  return sites;
}

export interface ReferenceProblem {
  site: ReferenceSite;
  diagnostics: string;
}

/**
 * What is wrong with the references of a resource from its content alone: a `reference` of no literal form
 * (`Patient?`, `Patient/`, `Patient/a b`), a `#id` naming no contained resource (ref-1), a Reference.type that
 * contradicts the reference. Forms valid only in some contexts (urn:uuid:, conditional) are the caller's to judge.
 */
export function referenceProblems(
  resource: Record<string, unknown>,
  type: string,
  root: string,
  elementTypes: ElementTypes,
  isResourceType: (type: string) => boolean,
): ReferenceProblem[] {
  const containedIds = new Set(
    (Array.isArray(resource.contained) ? resource.contained : []).flatMap((r) => (isPlainObject(r) && typeof r.id === 'string' ? [r.id] : [])),
  );
  const problems: ReferenceProblem[] = [];
  for (const site of referenceSites(resource, type, root, elementTypes)) {
    const parsed = parseReference(site.reference, isResourceType);
    const declared = site.element.type;
    if (parsed.kind === 'malformed') {
      problems.push({ site, diagnostics: `Reference '${site.reference}' is not a valid reference: ${parsed.problem}` });
    } else if (parsed.kind === 'contained' && parsed.id !== '' && !containedIds.has(parsed.id)) {
      problems.push({ site, diagnostics: `Reference '${site.reference}' names no contained resource (ref-1: a local reference needs a resource with that id in contained)` });
    } else if ((parsed.kind === 'relative' || parsed.kind === 'conditional') && typeof declared === 'string' && isResourceType(declared) && declared !== parsed.type) {
      problems.push({ site, diagnostics: `Reference '${site.reference}' names a ${parsed.type} but its type says ${declared}` });
    }
  }
  return problems;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
