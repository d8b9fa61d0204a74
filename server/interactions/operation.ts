// Extended operations: [base]/$op, [base]/[type]/$op, [base]/[type]/[id]/$op (FHIR R4 3.1.0.11 / 2.36.0 "Operations").
import type { Parameters } from '@medplum/fhirtypes';
import type { FhirRequest, FhirResponse } from '../fhir-request.ts';
import type { OperationLevel, OperationTarget } from '../operations/registry.ts';
import { FhirError, issue, methodNotAllowed, notFound } from '../../resources/outcome.ts';
import { assertKnownType, assertValid } from './write-checks.ts';

export function operation(req: FhirRequest, name: string, target: OperationTarget): FhirResponse {
  const level: OperationLevel = target.id ? 'instance' : target.type ? 'type' : 'system';
  const op = req.context.operations.find(name, level, target.type);
  // An operation registered for a named type (e.g. ViewDefinition/$run) makes that type routable even if not R4.
  if (target.type && !op?.types?.includes(target.type)) assertKnownType(target.type);
  if (!op) throw notFound(`Operation $${name} is not supported at ${level} level${target.type ? ` on ${target.type}` : ''}`);
  const method = req.method === 'HEAD' ? 'GET' : req.method;
  const getAllowed = op.readOnly && !op.postOnly;
  if (method !== 'POST' && !(method === 'GET' && getAllowed)) {
    throw methodNotAllowed(`$${name} is invoked with ${getAllowed ? 'GET or POST' : 'POST'}`);
  }
  if (req.bundleEntry && op.bundleEntry === false) throw notSupportedInBundle(`$${name}`);
  if (method === 'POST') assertValidParameters(req.body);
  return op.handler(req, target);
}

/**
 * A Parameters body must be structurally valid before any handler reads it ("parameter": "x" is a 400, not a crash).
 * Resources carried in parts are left to the operation: $validate reports on an invalid one instead of refusing it.
 * A `resource` that is not an object at all (null, a string) is no resource, so the envelope check still sees it.
 */
function assertValidParameters(body: unknown): void {
  if (!body || typeof body !== 'object' || (body as { resourceType?: unknown }).resourceType !== 'Parameters') return;
  const isObject = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);
  const withoutResources = (parts: unknown): unknown => Array.isArray(parts)
    ? parts.map((p) => (isObject(p)
      ? {
        ...p,
        ...(isObject((p as { resource?: unknown }).resource) ? { resource: undefined } : {}),
        ...('part' in p ? { part: withoutResources((p as { part: unknown }).part) } : {}),
      }
      : p))
    : parts;
  const envelope = { ...(body as object), parameter: withoutResources((body as { parameter?: unknown }).parameter) };
  assertValid(JSON.parse(JSON.stringify(envelope)) as Parameters);
}

/** 400 for an entry whose interaction cannot run inside a batch or transaction Bundle. */
export function notSupportedInBundle(what: string): FhirError {
  return new FhirError(400, [issue('error', 'not-supported',
    `${what} is not supported in a batch or transaction (its answer is not a resource available at once); call it directly`)]);
}
