// Helpers for the request-bound tests: JSON requests over the real socket of a started server.
import type { Bundle, BundleEntry, OperationOutcome, Resource } from '@medplum/fhirtypes';
import type { Reply } from '../test-server.ts';

export interface Http {
  (method: string, path: string, body?: unknown): Promise<Reply>;
}

/** fetch against `root` (the server's address, e.g. http://127.0.0.1:1234), FHIR JSON both ways. */
export function http(root: string): Http {
  return async (method, path, body) => {
    const res = await fetch(`${root}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/fhir+json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { statusCode: res.status, headers: Object.fromEntries(res.headers), body: await res.text() };
  };
}

/** A transaction Bundle that PUTs each resource (ids chosen by the test). */
export function putAll(resources: Resource[]): Bundle {
  return {
    resourceType: 'Bundle',
    type: 'transaction',
    entry: resources.map((resource) => ({ resource, request: { method: 'PUT', url: `${resource.resourceType}/${resource.id}` } })),
  };
}

export const observationOf = (id: string, patientId: string): Resource => ({
  resourceType: 'Observation', id, status: 'final',
  code: { coding: [{ system: 'http://loinc.org', code: '2823-3' }] },
  subject: { reference: `Patient/${patientId}` },
} as Resource);

/** The entries of a searchset by search mode. */
export function byMode(bundle: Bundle): { match: Resource[]; include: Resource[]; outcome: OperationOutcome[] } {
  const of = (mode: string) => (bundle.entry ?? []).filter((e: BundleEntry) => e.search?.mode === mode).map((e) => e.resource!);
  return { match: of('match'), include: of('include'), outcome: of('outcome') as OperationOutcome[] };
}
