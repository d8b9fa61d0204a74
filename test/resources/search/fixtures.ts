// Shared setup for the search tests: the real app (in-memory store), seeded over HTTP with PUT, searched with inject.
import type { Bundle, Resource } from '@medplum/fhirtypes';
import { buildApp } from '../../../server/app.ts';

type Tap = { teardown(fn: () => unknown): void; fail(message: string): void };

export const JSON_HEADERS = { 'content-type': 'application/fhir+json' };

export async function searchApp(t: Tap, resources: Resource[]) {
  const built = buildApp();
  t.teardown(() => built.app.close());
  const { app } = built;
  for (const r of resources) {
    const res = await app.inject({ method: 'PUT', url: `/fhir/${r.resourceType}/${r.id}`, headers: JSON_HEADERS, payload: r });
    if (res.statusCode >= 300) t.fail(`seeding ${r.resourceType}/${r.id}: ${res.statusCode} ${res.body}`);
  }
  /** GET a search; returns the status and parsed body. */
  const get = async (url: string, headers: Record<string, string> = {}) => {
    const res = await app.inject({ url: `/fhir/${url}`, headers });
    return { status: res.statusCode, body: JSON.parse(res.body) as Bundle & { issue?: { diagnostics?: string; expression?: string[] }[] } };
  };
  /** Ids of the `match` entries of a search, in Bundle order (fails the test on a non-200). */
  const ids = async (url: string) => {
    const { status, body } = await get(url);
    if (status !== 200) t.fail(`${url}: ${status} ${JSON.stringify(body)}`);
    return (body.entry ?? []).filter((e) => e.search?.mode === 'match').map((e) => e.resource!.id!);
  };
  /** Same ids, sorted, for set comparisons. */
  const idSet = async (url: string) => (await ids(url)).sort();
  return { app, get, ids, idSet };
}

export const patient = (id: string, extra: Record<string, unknown> = {}): Resource =>
  ({ resourceType: 'Patient', id, ...extra }) as Resource;

export const observation = (id: string, extra: Record<string, unknown> = {}): Resource =>
  ({ resourceType: 'Observation', id, status: 'final', code: { coding: [{ system: 'http://loinc.org', code: '2823-3', display: 'Potassium' }] }, ...extra }) as Resource;
