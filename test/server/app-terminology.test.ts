// The terminology is a service the app is built with (ServerContext.terminology), not a module global: the operations
// and the search engine's token modifiers answer from the service given to buildApp, apps built without one share
// the process's service, and building an app does not build its index.
import t from 'tap';
import type { Parameters, Resource } from '@medplum/fhirtypes';
import { buildTerminologyIndex, sharedTerminology, TerminologyService } from '../../resources/terminology/index.ts';
import { Store } from '../../resources/storage/store.ts';
import { createSearchIndexer } from '../../resources/search/index.ts';
import { bodyOf, injectApp } from './test-server.ts';

const JSON_HEADERS = { 'content-type': 'application/fhir+json' };

/** A service over one small code system: `fruit` (code F) with children `apple` (A) and `pear` (P). */
function smallTerminology(system: string, displays: Record<string, string>): TerminologyService {
  return new TerminologyService(buildTerminologyIndex({
    hl7: false,
    tables: [{ system, concepts: [
      { code: 'F', display: displays.fruit },
      { code: 'A', display: displays.apple, parents: ['F'] },
      { code: 'P', display: displays.pear, parents: ['F'] },
    ] }],
  }));
}

const condition = (id: string, system: string, code: string): Resource =>
  ({ resourceType: 'Condition', id, subject: { reference: 'Patient/p' }, code: { coding: [{ system, code }] } }) as Resource;

t.test('apps built without a terminology share the process service, and building one does not build its index', async (t) => {
  const a = injectApp(t);
  const b = injectApp(t);
  t.equal(a.context.terminology, b.context.terminology, 'one service for both apps');
  t.equal(a.context.terminology, sharedTerminology(), 'the shared one');
  t.equal(sharedTerminology().isBuilt, false, 'its index is not built by buildApp');
});

t.test('the operations and the search modifiers answer from the terminology the app was given', async (t) => {
  const SYSTEM = 'urn:test:fruit';
  const { app } = injectApp(t, { terminology: smallTerminology(SYSTEM, { fruit: 'Fruit', apple: 'Apple', pear: 'Pear' }) });
  const lookup = await app.inject({ url: `/fhir/CodeSystem/$lookup?system=${SYSTEM}&code=A` });
  t.equal(lookup.statusCode, 200);
  t.equal(bodyOf<Parameters>(lookup).parameter?.find((p) => p.name === 'display')?.valueString, 'Apple');
  const loinc = await app.inject({ url: '/fhir/CodeSystem/$lookup?system=http://loinc.org&code=2823-3' });
  t.equal(loinc.statusCode, 404, 'LOINC is not in the given terminology');
  const subsumes = await app.inject({ url: `/fhir/CodeSystem/$subsumes?system=${SYSTEM}&codeA=F&codeB=P` });
  t.equal(bodyOf<Parameters>(subsumes).parameter?.[0]?.valueCode, 'subsumes');

  for (const r of [{ resourceType: 'Patient', id: 'p' } as Resource, condition('a', SYSTEM, 'A'), condition('f', SYSTEM, 'F'), condition('x', 'urn:other', 'A')]) {
    const res = await app.inject({ method: 'PUT', url: `/fhir/${r.resourceType}/${r.id}`, headers: JSON_HEADERS, payload: r });
    t.ok(res.statusCode < 300, `PUT ${r.resourceType}/${r.id}`);
  }
  const ids = async (query: string) => {
    const res = await app.inject({ url: `/fhir/Condition?${query}` });
    t.equal(res.statusCode, 200, `${query}: ${res.body.slice(0, 300)}`);
    return (bodyOf<{ entry?: { resource: Resource }[] }>(res).entry ?? []).map((e) => e.resource.id).sort();
  };
  t.same(await ids(`code:below=${SYSTEM}|F`), ['a', 'f'], ':below over the given hierarchy');
  t.same(await ids(`code:above=${SYSTEM}|A`), ['a', 'f'], ':above over the given hierarchy');
  t.same(await ids(`code:in=${encodeURIComponent(`${SYSTEM}?fhir_vs`)}`), ['a', 'f'], ':in over the given implicit value set');
  t.same(await ids('code:text=appl'), ['a'], ':text over the given displays (no stored display)');
  t.equal(sharedTerminology().isBuilt, false, 'the process service was never reached');
});

t.test('two apps over one store each search with their own terminology', async (t) => {
  const SYSTEM = 'urn:test:fruit';
  const store = new Store({ path: ':memory:', indexers: [createSearchIndexer()] });
  t.teardown(() => store.close());
  // The same codes, named in two languages: `:text` tells the services apart.
  const english = injectApp(t, { store, terminology: smallTerminology(SYSTEM, { fruit: 'Fruit', apple: 'Apple', pear: 'Pear' }) });
  const french = injectApp(t, { store, terminology: smallTerminology(SYSTEM, { fruit: 'Fruit', apple: 'Pomme', pear: 'Poire' }) });
  for (const r of [{ resourceType: 'Patient', id: 'p' } as Resource, condition('a', SYSTEM, 'A'), condition('b', SYSTEM, 'P')]) {
    await english.app.inject({ method: 'PUT', url: `/fhir/${r.resourceType}/${r.id}`, headers: JSON_HEADERS, payload: r });
  }
  const ids = async (built: typeof english, query: string) =>
    (bodyOf<{ entry?: { resource: Resource }[] }>(await built.app.inject({ url: `/fhir/Condition?${query}` })).entry ?? []).map((e) => e.resource.id).sort();
  // Interleaved, so a per-connection SQL function bound to the first app's service would answer the second wrongly.
  t.same(await ids(english, 'code:text=apple'), ['a']);
  t.same(await ids(french, 'code:text=apple'), []);
  t.same(await ids(french, 'code:text=pomme'), ['a']);
  t.same(await ids(english, 'code:text=pomme'), []);
  t.same(await ids(french, 'code:text=poire'), ['b']);
});
