// Shared set-up for the gym tests: the real app, a stand-in base population written into the 'base' layer, and
// small request helpers. (Not a test file: tap only runs *.test.ts.)
import type { Resource } from '@medplum/fhirtypes';
import { buildApp, type AppOptions, type BuiltApp } from '../../../server/app.ts';
import { Repository } from '../../../resources/storage/repository.ts';
import { BASE_LAYER, makeSandbox, virtualClock } from '../../../resources/storage/sandbox.ts';
import type { Store } from '../../../resources/storage/store.ts';

export const FHIR_JSON = { 'content-type': 'application/fhir+json' };

/** Write resources straight into the read-only base layer (what the seed does), at a fixed instant. */
export function seedBase(store: Store, resources: (Resource & { id: string })[]): void {
  const base = new Repository(store, makeSandbox(BASE_LAYER, { clock: virtualClock(new Date('2020-01-01T00:00:00Z')) }));
  store.transaction(() => {
    for (const resource of resources) base.write(resource);
  });
}

export const basePatients: (Resource & { id: string })[] = [
  { resourceType: 'Patient', id: 'p1', name: [{ family: 'Alvarez', given: ['Ana'] }], gender: 'female', birthDate: '1950-02-03' },
  { resourceType: 'Patient', id: 'p2', name: [{ family: 'Brown', given: ['Ben'] }], gender: 'male', birthDate: '1961-07-08' },
  { resourceType: 'Observation', id: 'o1', status: 'final', code: { coding: [{ system: 'http://loinc.org', code: '2823-3' }], text: 'Potassium' },
    subject: { reference: 'Patient/p1' }, valueQuantity: { value: 3.1, unit: 'mmol/L' }, effectiveDateTime: '2019-12-30T08:00:00Z' },
];

export interface Gym extends BuiltApp {
  inject: BuiltApp['app']['inject'];
  /** JSON of a response, or undefined for an empty body. */
  json(method: string, url: string, payload?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any; headers: Record<string, unknown> }>;
  createSession(body?: Record<string, unknown>): Promise<{ id: string; fhirBaseUrl: string; now: string; [k: string]: unknown }>;
}

export async function startGym(t: { teardown(fn: () => unknown): void }, options: AppOptions = {}, seed = basePatients): Promise<Gym> {
  const built = buildApp(options);
  seedBase(built.context.store, seed);
  t.teardown(() => built.app.close());
  const json: Gym['json'] = async (method, url, payload, headers) => {
    const response = await built.app.inject({
      method: method as 'GET', url,
      headers: payload === undefined ? headers : { ...FHIR_JSON, ...headers },
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    });
    return { status: response.statusCode, body: response.body ? JSON.parse(response.body) : undefined, headers: response.headers };
  };
  return {
    ...built,
    inject: built.app.inject.bind(built.app),
    json,
    async createSession(body = {}) {
      const response = await json('POST', '/gym/sessions', body, { 'content-type': 'application/json' });
      if (response.status !== 201) throw new Error(`session create failed: ${response.status} ${JSON.stringify(response.body)}`);
      return response.body;
    },
  };
}

/** Whether the search engine has landed (its placeholder answers 501). */
export async function searchAvailable(gym: Gym): Promise<boolean> {
  return (await gym.json('GET', '/fhir/Patient?_id=p1')).status !== 501;
}
