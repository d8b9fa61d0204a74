// Checks every write passes before it reaches storage (FHIR R4 3.1.0.4 create, 3.1.0.5 update).
import type { OperationOutcomeIssue, Resource } from '@medplum/fhirtypes';
import type { FhirRequest } from '../fhir-request.ts';
import { badRequest, FhirError, issue, notFound, unsupportedMediaType, type IssueCode } from '../../resources/outcome.ts';
import { isKnownResourceType, resourceReferenceSites, validateResource } from '../../resources/validation/validate.ts';
import { parseReference, type ReferenceSite } from '../../resources/validation/references.ts';
import { ID_RULE, isValidId } from '../../resources/validation/id.ts';

const RESOURCE_MEDIA_TYPES = new Set(['application/fhir+json', 'application/json']);

export function assertKnownType(type: string): void {
  if (!isKnownResourceType(type)) throw notFound(`Unknown resource type '${type}'`);
}

/** The request body as a resource of the URL's type, structurally valid. */
export function resourceFromBody(req: FhirRequest, type: string): Resource {
  // A resource comes as FHIR JSON; a form or JSON Patch body parses too, but is the wrong media type (3.1.0.1.10).
  if (req.contentType !== undefined && !RESOURCE_MEDIA_TYPES.has(req.contentType)) {
    throw unsupportedMediaType(`A ${type} resource is sent as application/fhir+json, not '${req.contentType}'`);
  }
  const body = req.body;
  if (body === undefined || body === null || body === '') throw badRequest('The request has no resource body');
  if (typeof body !== 'object' || Array.isArray(body)) throw badRequest('The request body is not a JSON object');
  const resource = body as Resource;
  if (typeof resource.resourceType !== 'string') throw badRequest('The resource has no resourceType', ['resourceType']);
  if (resource.resourceType !== type) {
    throw badRequest(`resourceType '${resource.resourceType}' does not match the URL's type '${type}'`, ['resourceType']);
  }
  assertValid(resource);
  return resource;
}

export function assertValid(resource: Resource): void {
  const issues = validateResource(resource);
  if (issues.length > 0) throw new FhirError(400, issues);
}

/**
 * References must resolve (FHIR R4 2.3.0.3 literal references; HAPI's default referential integrity). By the time a
 * resource reaches here a transaction has rewritten its `urn:uuid:` and conditional references to `Type/id`
 * (transaction-references.ts), and the validator has refused malformed ones, so:
 * - `urn:uuid:`/`urn:oid:` or `Type?criteria` left over: only a transaction can resolve them - 400;
 * - `Type/id`, or this server's base + `/Type/id`: the resource must exist in the sandbox (its own layer or `base`),
 *   and with `/_history/vid` that version must exist and not be a deletion - 422 (a business rule, 3.1.0.4; the form
 *   is valid) unless the server setting turns existence checks off;
 * - `#id` was checked against `contained` by the validator; other absolute URLs point elsewhere and are not followed.
 * Returns the problems as warnings instead when `asWarnings` ($validate).
 */
export function checkReferences(req: FhirRequest, resource: Resource, asWarnings = false): OperationOutcomeIssue[] {
  const enforceExistence = req.context.settings.enforceReferentialIntegrity || asWarnings;
  const malformed: OperationOutcomeIssue[] = [];
  const missing: OperationOutcomeIssue[] = [];
  const report = (list: OperationOutcomeIssue[], code: IssueCode, site: ReferenceSite, diagnostics: string) => {
    const path = `${site.path}.reference`;
    list.push(issue(asWarnings ? 'warning' : 'error', code, `${path}: Reference '${site.reference}' ${diagnostics}`, [path]));
  };
  for (const site of resourceReferenceSites(resource)) {
    let parsed = parseReference(site.reference, isKnownResourceType);
    if (parsed.kind === 'absolute') {
      if (!site.reference.startsWith(`${req.baseUrl}/`)) continue; // another server
      parsed = parseReference(site.reference.slice(req.baseUrl.length + 1), isKnownResourceType);
      if (parsed.kind !== 'relative') {
        report(malformed, 'invalid', site, `is under this server's base but does not name a resource as ${req.baseUrl}/Type/id`);
        continue;
      }
    }
    if (parsed.kind === 'placeholder') {
      report(malformed, 'invalid', site, "is resolved only inside a transaction Bundle, to an entry's fullUrl; outside one, use Type/id");
    } else if (parsed.kind === 'conditional') {
      report(malformed, 'invalid', site, 'is a conditional reference, resolved only inside a transaction or batch Bundle; outside one, use Type/id');
    } else if (parsed.kind === 'relative' && enforceExistence) {
      const { type, id, version } = parsed;
      if (type === resource.resourceType && id === resource.id) continue;
      if (version === undefined) {
        if (!req.repo.exists(type, id)) report(missing, 'not-found', site, `points at ${type}/${id}, which does not exist`);
      } else {
        const stored = /^\d+$/.test(version) ? req.repo.version(type, id, Number(version)) : undefined;
        if (!stored || stored.deleted) report(missing, 'not-found', site, `points at version ${version} of ${type}/${id}, which does not exist`);
      }
    }
  }
  const issues = [...malformed, ...missing];
  if (issues.length > 0 && !asWarnings) throw new FhirError(malformed.length > 0 ? 400 : 422, issues);
  return issues;
}

/** An id supplied by a client, in the URL or the body, must be a valid FHIR id (not `.` or `..`). */
export function assertValidId(id: string, expression?: string[]): void {
  if (!isValidId(id)) throw badRequest(`'${id}' is not a valid resource id (${ID_RULE})`, expression);
}
