// Property: search inside a session returns exactly what the same search returns on a database that holds the
// base with the session's writes applied (one flat layer). Shadowing updates, tombstones and index rows must agree.
import t from 'tap';
import fc from 'fast-check';
import type { Resource } from '@medplum/fhirtypes';
import { buildApp } from '../../../server/app.ts';
import { searchAvailable, seedBase, startGym } from './gym-harness.ts';

const families = ['Alvarez', 'Brown', 'Chen', 'Diaz'];
const genders = ['female', 'male', 'other'];
const codes = ['K', 'MG', 'GLU'];

type Res = Resource & { id: string };

const patientArb = (id: string) => fc.record({
  family: fc.constantFrom(...families), gender: fc.constantFrom(...genders),
  birthDate: fc.integer({ min: 1940, max: 2000 }).map((y) => `${y}-06-15`),
}).map(({ family, gender, birthDate }): Res => ({ resourceType: 'Patient', id, name: [{ family }], gender: gender as 'female', birthDate }));

const observationArb = (id: string, patients: number) => fc.record({
  code: fc.constantFrom(...codes), subject: fc.integer({ min: 0, max: patients - 1 }), value: fc.integer({ min: 1, max: 9 }),
}).map(({ code, subject, value }): Res => ({
  resourceType: 'Observation', id, status: 'final', code: { coding: [{ system: 'http://example.org/flowsheet', code }] },
  subject: { reference: `Patient/b${subject}` }, valueQuantity: { value, unit: 'mmol/L' },
}));

const N_PATIENTS = 6;
const N_OBS = 6;
const baseArb = fc.tuple(
  fc.tuple(...Array.from({ length: N_PATIENTS }, (_, i) => patientArb(`b${i}`))),
  fc.tuple(...Array.from({ length: N_OBS }, (_, i) => observationArb(`o${i}`, N_PATIENTS))),
).map(([p, o]) => [...p, ...o]);

/** A session write: update or delete one of the base resources, or create a new one with a client id. */
const opArb = fc.oneof(
  fc.record({ kind: fc.constant('put' as const), target: fc.integer({ min: 0, max: N_PATIENTS - 1 }) }).chain((op) => patientArb(`b${op.target}`).map((r) => ({ ...op, resource: r }))),
  fc.record({ kind: fc.constant('put' as const), target: fc.integer({ min: 0, max: N_OBS - 1 }) }).chain((op) => observationArb(`o${op.target}`, N_PATIENTS).map((r) => ({ ...op, resource: r }))),
  fc.record({ kind: fc.constant('put' as const), target: fc.integer({ min: 0, max: 3 }) }).chain((op) => patientArb(`s${op.target}`).map((r) => ({ ...op, resource: r }))),
  fc.record({ kind: fc.constant('delete' as const), type: fc.constantFrom('Patient', 'Observation'), target: fc.integer({ min: 0, max: N_PATIENTS - 1 }) })
    .map((op) => ({ ...op, id: op.type === 'Patient' ? `b${op.target}` : `o${op.target}` })),
);

const queries = [
  ...families.map((f) => `Patient?family=${f}`),
  ...genders.map((g) => `Patient?gender=${g}`),
  'Patient?birthdate=ge1970-01-01', 'Patient?birthdate=lt1960', 'Patient?family=Chen&gender=female', 'Patient?_id=b0,b1,s0',
  ...codes.map((c) => `Observation?code=http://example.org/flowsheet|${c}`),
  'Observation?subject=Patient/b0', 'Observation?patient=b1', 'Observation?value-quantity=gt5', 'Observation?subject:missing=false',
  'Patient?_sort=birthdate,_id&_count=4',
];

t.test('search in a session equals search over base + overlay flattened', async (t) => {
  const ready = await searchAvailable(await startGym(t));
  t.test('property', { todo: ready ? false : 'the search engine has not landed (its placeholder answers 501)' }, async (t) => {
    await fc.assert(fc.asyncProperty(baseArb, fc.array(opArb, { maxLength: 12 }), async (base, ops) => {
      const gym = buildApp({ settings: { enforceReferentialIntegrity: false } });
      const flat = buildApp({ settings: { enforceReferentialIntegrity: false } });
      try {
        seedBase(gym.context.store, base);
        const created = await gym.app.inject({ method: 'POST', url: '/gym/sessions', payload: {} });
        const session = `/fhir/_session/${created.json().id}`;
        // The model: what the session should see.
        const model = new Map(base.map((r) => [`${r.resourceType}/${r.id}`, r as Res | null]));
        for (const op of ops) {
          if (op.kind === 'put') {
            const r = op.resource;
            const res = await gym.app.inject({ method: 'PUT', url: `${session}/${r.resourceType}/${r.id}`, headers: { 'content-type': 'application/fhir+json' }, payload: JSON.stringify(r) });
            if (res.statusCode >= 300) throw new Error(`PUT failed ${res.statusCode} ${res.body}`);
            model.set(`${r.resourceType}/${r.id}`, r);
          } else {
            await gym.app.inject({ method: 'DELETE', url: `${session}/${op.type}/${op.id}` });
            model.set(`${op.type}/${op.id}`, null);
          }
        }
        seedBase(flat.context.store, [...model.values()].filter((r): r is Res => r !== null));
        for (const query of queries) {
          const [a, b] = await Promise.all([
            gym.app.inject({ method: 'GET', url: `${session}/${query}` }),
            flat.app.inject({ method: 'GET', url: `/fhir/${query}` }),
          ]);
          if (a.statusCode !== 200 || b.statusCode !== 200) throw new Error(`${query}: ${a.statusCode} ${b.statusCode} ${a.body.slice(0, 200)}`);
          const ids = (bundle: any) => (bundle.entry ?? []).map((e: any) => `${e.resource.resourceType}/${e.resource.id}`);
          const sessionIds = ids(a.json());
          const flatIds = ids(b.json());
          const sorted = query.includes('_sort');
          const left = sorted ? sessionIds : [...sessionIds].sort();
          const right = sorted ? flatIds : [...flatIds].sort();
          if (JSON.stringify(left) !== JSON.stringify(right) || a.json().total !== b.json().total) {
            throw new Error(`${query}: session ${JSON.stringify(left)} (total ${a.json().total}) != flat ${JSON.stringify(right)} (total ${b.json().total})`);
          }
        }
      } finally {
        await gym.app.close();
        await flat.app.close();
      }
    }), { numRuns: 40, seed: 20260511 });
    t.pass('40 random bases and write sequences agree on every query');
  });
});
