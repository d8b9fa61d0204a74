// Issue 14 item 5: CodeSystem, ValueSet and ConceptMap resources written through the API are what the terminology
// operations serve, in the session that wrote them and in no other; the built-in terminology stays underneath.
import t from 'tap';
import type { Parameters, ValueSet } from '@medplum/fhirtypes';
import { startServer } from '../test-server.ts';

const CS = 'http://example.org/cs';
const VS = 'http://example.org/vs';
const CM = 'http://example.org/cm';

const codeSystem = {
  resourceType: 'CodeSystem', url: CS, version: '1', name: 'ExampleCS', title: 'Example code system', status: 'active',
  content: 'complete', hierarchyMeaning: 'is-a',
  concept: [{
    code: 'A', display: 'Alpha', designation: [{ language: 'en', value: 'First letter' }],
    concept: [{ code: 'B', display: 'Beta' }],
  }, { code: 'C', display: 'Gamma' }],
};
const valueSet = { resourceType: 'ValueSet', url: VS, status: 'active', compose: { include: [{ system: CS, filter: [{ property: 'concept', op: 'is-a', value: 'A' }] }] } };
const conceptMap = {
  resourceType: 'ConceptMap', url: CM, status: 'active',
  group: [{ source: CS, target: 'http://loinc.org', element: [{ code: 'A', target: [{ code: '2823-3', equivalence: 'equivalent' }] }] }],
};

type Answer = { status: number; body: any };
const part = (p: Parameters, name: string) => p.parameter?.find((x) => x.name === name);

t.test('terminology resources stored in a session are served by the operations of that session only', async (t) => {
  const { app } = await startServer(t);
  const root = (app.server.address() as { port: number }).port;
  const origin = `http://127.0.0.1:${root}`;
  const call = async (method: string, path: string, body?: unknown): Promise<Answer> => {
    const res = await fetch(`${origin}${path}`, {
      method, ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/fhir+json' } }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const newSession = async () => {
    const res = await fetch(`${origin}/gym/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    return `/fhir/_session/${((await res.json()) as { id: string }).id}`;
  };
  const gym = await newSession();
  const other = await newSession();
  const lookupA = `/CodeSystem/$lookup?system=${encodeURIComponent(CS)}&code=A`;

  t.equal((await call('GET', gym + lookupA)).status, 404, 'unknown before it is written');
  const created = await call('POST', `${gym}/CodeSystem`, codeSystem);
  t.equal(created.status, 201, 'CodeSystem stored');
  const csId = created.body.id as string;

  await t.test('$lookup: display, designation, hierarchy', async (t) => {
    const res = await call('GET', gym + lookupA);
    t.equal(res.status, 200);
    t.equal(part(res.body, 'name')?.valueString, 'Example code system');
    t.equal(part(res.body, 'version')?.valueString, '1');
    t.equal(part(res.body, 'display')?.valueString, 'Alpha');
    t.equal(part(res.body, 'designation')?.part?.find((p) => p.name === 'value')?.valueString, 'First letter');
    const child = res.body.parameter.find((p: any) => p.name === 'property' && p.part.some((q: any) => q.valueCode === 'child'));
    t.equal(child?.part.find((q: any) => q.name === 'value')?.valueCode, 'B', 'the nested concept is a child');
    const byInstance = await call('GET', `${gym}/CodeSystem/${csId}/$lookup?code=B`);
    t.equal(byInstance.status, 200, 'instance-level $lookup reads the stored resource');
    t.equal(part(byInstance.body, 'display')?.valueString, 'Beta');
    t.equal((await call('GET', `${gym}/CodeSystem/$lookup?system=${encodeURIComponent(CS)}&code=Z`)).status, 404, 'a code it does not hold');
  });

  await t.test('$subsumes over the nested concepts', async (t) => {
    const q = (a: string, b: string) => call('GET', `${gym}/CodeSystem/$subsumes?system=${encodeURIComponent(CS)}&codeA=${a}&codeB=${b}`);
    t.equal(part((await q('A', 'B')).body, 'outcome')?.valueCode, 'subsumes');
    t.equal(part((await q('B', 'A')).body, 'outcome')?.valueCode, 'subsumed-by');
    t.equal(part((await q('A', 'C')).body, 'outcome')?.valueCode, 'not-subsumed');
    t.equal(part((await call('GET', `${gym}/CodeSystem/${csId}/$subsumes?codeA=A&codeB=A`)).body, 'outcome')?.valueCode, 'equivalent', 'instance level');
  });

  await t.test('CodeSystem $validate-code', async (t) => {
    const yes = await call('GET', `${gym}/CodeSystem/$validate-code?url=${encodeURIComponent(CS)}&code=B&display=Beta`);
    t.equal(part(yes.body, 'result')?.valueBoolean, true);
    const no = await call('GET', `${gym}/CodeSystem/$validate-code?url=${encodeURIComponent(CS)}&code=Q`);
    t.equal(part(no.body, 'result')?.valueBoolean, false);
    const wrongDisplay = await call('GET', `${gym}/CodeSystem/$validate-code?url=${encodeURIComponent(CS)}&code=A&display=Omega`);
    t.equal(part(wrongDisplay.body, 'result')?.valueBoolean, false, 'a display that is not one of its names');
  });

  await t.test('a stored ValueSet over it: $expand and $validate-code', async (t) => {
    const vs = await call('POST', `${gym}/ValueSet`, valueSet);
    t.equal(vs.status, 201);
    const byUrl = await call('GET', `${gym}/ValueSet/$expand?url=${encodeURIComponent(VS)}`);
    t.equal(byUrl.status, 200);
    t.same((byUrl.body as ValueSet).expansion?.contains?.map((c) => `${c.code} ${c.display}`).sort(), ['A Alpha', 'B Beta'], 'is-a A over the stored hierarchy');
    const byId = await call('GET', `${gym}/ValueSet/${vs.body.id}/$expand`);
    t.equal((byId.body as ValueSet).expansion?.total, 2, 'instance-level $expand');
    const member = await call('GET', `${gym}/ValueSet/$validate-code?url=${encodeURIComponent(VS)}&system=${encodeURIComponent(CS)}&code=B`);
    t.equal(part(member.body, 'result')?.valueBoolean, true);
    const outside = await call('GET', `${gym}/ValueSet/$validate-code?url=${encodeURIComponent(VS)}&system=${encodeURIComponent(CS)}&code=C`);
    t.equal(part(outside.body, 'result')?.valueBoolean, false);
    const implicit = await call('GET', `${gym}/ValueSet/$expand?url=${encodeURIComponent(`${CS}?fhir_vs`)}`);
    t.equal((implicit.body as ValueSet).expansion?.total, 3, 'the implicit all-codes value set of the stored system');
  });

  await t.test('a stored ConceptMap: $translate', async (t) => {
    t.equal((await call('POST', `${gym}/ConceptMap`, conceptMap)).status, 201);
    const res = await call('GET', `${gym}/ConceptMap/$translate?url=${encodeURIComponent(CM)}&system=${encodeURIComponent(CS)}&code=A`);
    t.equal(res.status, 200);
    t.equal(part(res.body, 'result')?.valueBoolean, true);
    const concept = part(res.body, 'match')?.part?.find((p) => p.name === 'concept')?.valueCoding;
    t.same(concept, { system: 'http://loinc.org', code: '2823-3', display: 'Potassium [Moles/volume] in Serum or Plasma' }, 'target display from the built-in LOINC');
    const bySystem = await call('GET', `${gym}/ConceptMap/$translate?system=${encodeURIComponent(CS)}&code=A&targetsystem=http://loinc.org`);
    t.equal(part(bySystem.body, 'result')?.valueBoolean, true, 'found among every map from the system');
  });

  await t.test('another session and the default session do not see them', async (t) => {
    for (const base of [other, '/fhir']) {
      t.equal((await call('GET', base + lookupA)).status, 404, `${base}: $lookup 404`);
      t.equal((await call('GET', `${base}/CodeSystem/$subsumes?system=${encodeURIComponent(CS)}&codeA=A&codeB=B`)).status, 404, `${base}: $subsumes 404`);
      t.equal((await call('GET', `${base}/ValueSet/$expand?url=${encodeURIComponent(VS)}`)).status, 404, `${base}: $expand 404`);
      t.equal((await call('GET', `${base}/ConceptMap/$translate?url=${encodeURIComponent(CM)}&system=${encodeURIComponent(CS)}&code=A`)).status, 404, `${base}: $translate 404`);
      t.equal((await call('GET', `${base}/CodeSystem/${csId}/$lookup?code=A`)).status, 404, `${base}: instance $lookup 404`);
    }
  });

  await t.test('the built-in terminology still answers in the session', async (t) => {
    const loinc = await call('GET', `${gym}/CodeSystem/$lookup?system=http://loinc.org&code=2823-3`);
    t.equal(loinc.status, 200);
    t.equal(part(loinc.body, 'display')?.valueString, 'Potassium [Moles/volume] in Serum or Plasma');
    const snomed = await call('GET', `${gym}/CodeSystem/$subsumes?system=http://snomed.info/sct&codeA=73211009&codeB=44054006`);
    t.equal(part(snomed.body, 'outcome')?.valueCode, 'subsumes');
  });

  await t.test('a stored fragment of a built-in system does not hide it', async (t) => {
    const fragment = { resourceType: 'CodeSystem', url: 'http://loinc.org', status: 'active', content: 'not-present' };
    t.equal((await call('POST', `${gym}/CodeSystem`, fragment)).status, 201);
    const loinc = await call('GET', `${gym}/CodeSystem/$lookup?system=http://loinc.org&code=2823-3`);
    t.equal(part(loinc.body, 'display')?.valueString, 'Potassium [Moles/volume] in Serum or Plasma');
    const expanded = await call('GET', `${gym}/ValueSet/$expand?url=http://loinc.org/vs&filter=potassium&count=1`);
    t.equal((expanded.body as ValueSet).expansion?.contains?.[0]?.code, '2823-3', 'the implicit LOINC value set still expands');
    const extra = { resourceType: 'CodeSystem', url: 'http://loinc.org', status: 'active', content: 'fragment', concept: [{ code: 'LOCAL-1', display: 'Local test' }] };
    t.equal((await call('POST', `${gym}/CodeSystem`, extra)).status, 201);
    t.equal(part((await call('GET', `${gym}/CodeSystem/$lookup?system=http://loinc.org&code=LOCAL-1`)).body, 'display')?.valueString, 'Local test', 'its own codes are found');
    t.equal((await call('GET', `${gym}/CodeSystem/$lookup?system=http://loinc.org&code=2823-3`)).status, 200, 'and the built-in ones still are');
  });

  await t.test('the latest version serves unless a version is named', async (t) => {
    const v2 = { ...codeSystem, version: '2', concept: [{ code: 'A', display: 'Alpha two' }] };
    t.equal((await call('POST', `${gym}/CodeSystem`, v2)).status, 201);
    t.equal(part((await call('GET', gym + lookupA)).body, 'display')?.valueString, 'Alpha two', 'latest version');
    const v1 = await call('GET', `${gym}/CodeSystem/$lookup?system=${encodeURIComponent(`${CS}|1`)}&code=A`);
    t.equal(part(v1.body, 'display')?.valueString, 'Alpha', 'system|version names version 1');
    t.equal((await call('DELETE', `${gym}/CodeSystem/${(await call('GET', `${gym}/CodeSystem?url=${encodeURIComponent(CS)}&version=2`)).body.entry[0].resource.id}`)).status, 200);
  });

  await t.test('deleting the CodeSystem makes $lookup 404 again', async (t) => {
    t.equal(part((await call('GET', gym + lookupA)).body, 'display')?.valueString, 'Alpha', 'version 1 again');
    const deleted = await call('DELETE', `${gym}/CodeSystem/${csId}`);
    t.ok(deleted.status === 200 || deleted.status === 204, `deleted (${deleted.status})`);
    const res = await call('GET', gym + lookupA);
    t.equal(res.status, 404);
    t.equal(res.body.resourceType, 'OperationOutcome');
    t.equal((await call('GET', `${gym}/CodeSystem/${csId}/$lookup?code=A`)).status, 404, 'instance level too');
  });
});
