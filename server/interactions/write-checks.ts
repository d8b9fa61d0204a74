// Checks every write passes before it reaches storage (FHIR R4 3.1.0.4 create, 3.1.0.5 update).
import type { Resource } from '@medplum/fhirtypes';
import type { FhirRequest } from '../fhir-request.ts';
import { badRequest, FhirError, issue, notFound, unsupportedMediaType } from '../../resources/outcome.ts';
import { isKnownResourceType, validateResource } from '../../resources/validation/validate.ts';
import { localTarget, resourceReferences } from '../../resources/references.ts';

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
 * Reject references to resources that do not exist in this sandbox (HAPI's default behaviour); a server setting
 * turns it off. Returns the dangling references as issues when `asWarnings`.
 */
export function checkReferences(req: FhirRequest, resource: Resource, asWarnings = false) {
  if (!req.context.settings.enforceReferentialIntegrity && !asWarnings) return [];
  const issues = [];
  for (const site of resourceReferences(resource)) {
    const target = localTarget(site.reference, req.baseUrl);
    if (!target) continue;
    if (target.type === resource.resourceType && target.id === resource.id) continue;
    if (!req.repo.exists(target.type, target.id)) {
      issues.push(issue(asWarnings ? 'warning' : 'error', 'not-found', `Reference '${site.reference}' points at a resource that does not exist`));
    }
  }
  if (issues.length > 0 && !asWarnings) throw new FhirError(422, issues);
  return issues;
}

/** An id supplied by a client (update-as-create) must be a valid FHIR id. */
export function assertValidId(id: string): void {
  if (!/^[A-Za-z0-9\-.]{1,64}$/.test(id)) throw badRequest(`'${id}' is not a valid resource id`);
}


