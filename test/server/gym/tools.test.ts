// Tool schemas from one source (GET /gym/tools, `ehr-gym tools`) and the tool executor run against a session.
import t from 'tap';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { basePatients, startGym } from './gym-harness.ts';
import { gymTools, renderTools } from '../../../server/tools/index.ts';
import { decodeAttachments, queryString, truncate } from '../../../server/tools/render.ts';

const run = promisify(execFile);
const toolNames = ['fhir_search', 'fhir_read', 'fhir_create', 'fhir_update', 'fhir_patch', 'fhir_delete', 'fhir_history',
  'terminology_search', 'terminology_lookup', 'run_view', 'sql_query', 'evidence_search', 'finish'];

t.test('GET /gym/tools renders the same definitions as OpenAI and Anthropic tools', async (t) => {
  const gym = await startGym(t);
  const openai = (await gym.json('GET', '/gym/tools?format=openai')).body;
  const anthropic = (await gym.json('GET', '/gym/tools?format=anthropic')).body;
  t.same((await gym.json('GET', '/gym/tools')).body, openai, 'openai is the default');
  t.same(openai.map((x: any) => x.function.name), toolNames);
  t.same(anthropic.map((x: any) => x.name), toolNames);
  for (const [i, tool] of gymTools.entries()) {
    t.same(openai[i], { type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } });
    t.same(anthropic[i], { name: tool.name, description: tool.description, input_schema: tool.parameters });
    t.equal(tool.parameters.type, 'object');
  }
  t.same(openai.find((x: any) => x.function.name === 'fhir_search').function.parameters.required, ['resourceType']);
  t.same(anthropic.find((x: any) => x.name === 'finish').input_schema.required, ['answer']);
  const bad = await gym.json('GET', '/gym/tools?format=yaml');
  t.equal(bad.status, 400);
  t.equal(bad.body.resourceType, 'OperationOutcome');
});

t.test('ehr-gym tools --format prints what GET /gym/tools returns', async (t) => {
  for (const format of ['openai', 'anthropic'] as const) {
    const { stdout } = await run('npx', ['tsx', 'bin/ehr-gym.ts', 'tools', '--format', format], { cwd: new URL('../../../', import.meta.url).pathname });
    t.same(JSON.parse(stdout), renderTools(format), format);
  }
  await t.rejects(run('npx', ['tsx', 'bin/ehr-gym.ts', 'tools', '--format', 'yaml'], { cwd: new URL('../../../', import.meta.url).pathname }));
});

t.test('every tool runs against its session through the FHIR routes, and is audited with its name', async (t) => {
  const gym = await startGym(t);
  const s = await gym.createSession({ now: '2023-11-13T10:15:00Z' });
  const other = await gym.createSession();
  const call = async (name: string, args: unknown, id = s.id) => {
    const res = await gym.json('POST', `/gym/sessions/${id}/tools/${name}`, args, { 'content-type': 'application/json' });
    t.equal(res.status, 200, `${name} answered`);
    return res.body as { text: string; isError: boolean; finished?: boolean };
  };

  const read = await call('fhir_read', { resourceType: 'Patient', id: 'p1' });
  t.equal(read.isError, false);
  t.equal(JSON.parse(read.text).name[0].family, 'Alvarez');
  t.notMatch(read.text, /\n/, 'compact JSON');

  const created = await call('fhir_create', { resourceType: 'MedicationRequest', resource: {
    resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: 'Patient/p1' },
    medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '8591' }] } } });
  const order = JSON.parse(created.text);
  t.equal(order.meta.lastUpdated.slice(0, 10), '2023-11-13');

  const updated = await call('fhir_update', { resourceType: 'MedicationRequest', id: order.id, resource: { ...order, status: 'on-hold' } });
  t.equal(JSON.parse(updated.text).status, 'on-hold');
  const patched = await call('fhir_patch', { resourceType: 'MedicationRequest', id: order.id, patch: [{ op: 'replace', path: '/status', value: 'stopped' }] });
  t.equal(JSON.parse(patched.text).status, 'stopped');

  const history = JSON.parse((await call('fhir_history', { resourceType: 'MedicationRequest', id: order.id })).text);
  t.equal(history.total, 3);
  t.same(history.versions.map((v: any) => v.resource.status), ['stopped', 'on-hold', 'active']);

  const search = await call('fhir_search', { resourceType: 'Patient', params: { gender: ['female'], _count: 1 } });
  t.equal(search.isError, false, search.text);
  const found = JSON.parse(search.text);
  t.same(found.resources.map((r: any) => r.id), ['p1']);

  const deleted = await call('fhir_delete', { resourceType: 'MedicationRequest', id: order.id });
  t.same(JSON.parse(deleted.text), { deleted: `MedicationRequest/${order.id}` });
  const gone = await call('fhir_read', { resourceType: 'MedicationRequest', id: order.id });
  t.equal(gone.isError, true);
  t.equal(JSON.parse(gone.text).error, 410);

  // Nothing leaked into the other session.
  t.equal((await call('fhir_read', { resourceType: 'MedicationRequest', id: order.id }, other.id)).isError, true);

  const finished = await call('finish', { answer: 'Potassium is low; started replacement.' });
  t.same([finished.isError, finished.finished], [false, true]);
  t.equal((await gym.json('GET', `/gym/sessions/${s.id}`)).body.submission.answer, 'Potassium is low; started replacement.');

  const log = (await gym.json('GET', `/gym/sessions/${s.id}/log`)).body.entries;
  t.same(log.map((e: any) => e.tool), ['fhir_read', 'fhir_create', 'fhir_update', 'fhir_patch', 'fhir_history', 'fhir_search', 'fhir_delete', 'fhir_read']);
  t.same(log.map((e: any) => e.method), ['GET', 'POST', 'PUT', 'PATCH', 'GET', 'GET', 'DELETE', 'GET']);
});

t.test('terminology, SQL on FHIR and evidence tools run through the session FHIR base and are audited', async (t) => {
  const gym = await startGym(t);
  const s = await gym.createSession({ now: '2023-11-13T10:15:00Z' });
  const other = await gym.createSession({ now: '2023-11-13T10:15:00Z' });
  const call = async (name: string, args: unknown, id = s.id) => {
    const res = await gym.json('POST', `/gym/sessions/${id}/tools/${name}`, args, { 'content-type': 'application/json' });
    t.equal(res.status, 200, `${name} answered`);
    return res.body as { text: string; isError: boolean };
  };

  // terminology_search in one system: LOINC's potassium codes, serum first.
  const loinc = await call('terminology_search', { query: 'potassium', system: 'http://loinc.org' });
  t.equal(loinc.isError, false, loinc.text);
  const loincMatches = JSON.parse(loinc.text).matches as { system: string; code: string; display: string }[];
  t.equal(loincMatches[0].code, '2823-3');
  t.match(loincMatches[0].display, /^Potassium/);
  t.ok(loincMatches.every((m) => m.system === 'http://loinc.org'), 'only the named system');
  // Across systems: the local flowsheet code and the hyperkalemia diagnosis come back beside LOINC.
  const across = JSON.parse((await call('terminology_search', { query: 'potassium', count: 20 })).text);
  const tokens = across.matches.map((m: any) => `${m.system}|${m.code}`);
  t.ok(tokens.includes('http://loinc.org|2823-3'), 'LOINC');
  t.ok(tokens.includes('http://ehr-gym.example/fhir/CodeSystem/flowsheet|K'), 'the local flowsheet code');
  t.ok(tokens.includes('http://snomed.info/sct|14140009'), 'SNOMED hyperkalemia');
  t.same(JSON.parse((await call('terminology_search', { query: 'potassium', count: 2 })).text).matches.length, 2, 'count');
  const unknownSystem = await call('terminology_search', { query: 'potassium', system: 'http://example.org/nope' });
  t.equal(unknownSystem.isError, true);
  t.equal(JSON.parse(unknownSystem.text).error, 404);

  const lookup = JSON.parse((await call('terminology_lookup', { system: 'http://loinc.org', code: '2823-3' })).text);
  t.equal(lookup.display, 'Potassium [Moles/volume] in Serum or Plasma');
  t.equal(lookup.name, 'LOINC');
  t.ok(lookup.synonyms.includes('K'));
  t.equal(lookup.properties.COMPONENT, 'Potassium');
  const unknownCode = await call('terminology_lookup', { system: 'http://loinc.org', code: '0000-0' });
  t.equal(unknownCode.isError, true, unknownCode.text);

  // run_view / sql_query see this session's writes, not another session's.
  const view = { resourceType: 'ViewDefinition', name: 'k', status: 'active', resource: 'Observation', select: [{ column: [
    { name: 'patient', path: 'subject.getReferenceKey(Patient)' }, { name: 'value', path: 'value.ofType(Quantity).value' }] }] };
  await call('fhir_create', { resourceType: 'Observation', resource: {
    resourceType: 'Observation', status: 'final', code: { coding: [{ system: 'http://loinc.org', code: '2823-3' }] },
    subject: { reference: 'Patient/p2' }, valueQuantity: { value: 5.9, unit: 'mmol/L' } } });
  const rows = await call('run_view', { view });
  t.equal(rows.isError, false, rows.text);
  t.same(JSON.parse(rows.text).sort((a: any, b: any) => a.patient.localeCompare(b.patient)), [{ patient: 'p1', value: 3.1 }, { patient: 'p2', value: 5.9 }]);
  t.same(JSON.parse((await call('run_view', { view }, other.id)).text), [{ patient: 'p1', value: 3.1 }], 'the other session');
  t.same((await call('run_view', { view, patient: 'Patient/p2', format: 'csv' })).text.trim().split(/\r?\n/), ['patient,value', 'p2,5.9'], 'CSV, one patient');
  const sql = await call('sql_query', { query: 'SELECT count(*) AS n, max(value) AS top FROM k', views: [view] });
  t.equal(sql.isError, false, sql.text);
  t.same(JSON.parse(sql.text).map((r: any) => [r.n, Number(r.top)]), [[2, 5.9]]);
  const write = await call('sql_query', { query: 'DELETE FROM k', views: [view] });
  t.equal(write.isError, true);
  t.match(JSON.parse(write.text).issues[0].diagnostics, /SELECT/);

  const evidence = await call('evidence_search', { patient: 'p1', topic: 'hyperkalemia' });
  t.equal(evidence.isError, false, evidence.text);
  t.match(gymTools.find((x) => x.name === 'evidence_search')!.description, /Returns \{total, items: \[\{score, reason, resource\}\]\}/, 'the description says what the tool returns');
  const items = JSON.parse(evidence.text).items;
  t.equal(items[0].resource.id, 'o1');
  t.type(items[0].score, 'number');
  t.match(items[0].reason, /Potassium/);
  t.equal((await call('evidence_search', { patient: 'nobody', topic: 'hyperkalemia' })).isError, true);

  const log = (await gym.json('GET', `/gym/sessions/${s.id}/log`)).body.entries;
  const byTool = log.filter((e: any) => e.tool !== 'fhir_create').map((e: any) => `${e.tool} ${e.method} ${e.path}`);
  t.same(byTool, [
    'terminology_search GET ValueSet/$expand', 'terminology_search POST ValueSet/$expand', 'terminology_search POST ValueSet/$expand',
    'terminology_search GET ValueSet/$expand', 'terminology_lookup GET CodeSystem/$lookup', 'terminology_lookup GET CodeSystem/$lookup',
    'run_view POST ViewDefinition/$run', 'run_view POST ViewDefinition/$run', 'sql_query POST $sqlquery-run', 'sql_query POST $sqlquery-run',
    'evidence_search GET Patient/p1/$evidence', 'evidence_search GET Patient/nobody/$evidence',
  ]);
  t.equal(log[0].query.find(([k]: string[]) => k === 'url')[1], 'http://loinc.org?fhir_vs', 'the implicit value set of the system');
});

t.test('arguments are checked against the tool schema before anything is sent', async (t) => {
  const gym = await startGym(t);
  const s = await gym.createSession();
  for (const [name, args] of [
    ['fhir_read', { resourceType: '../../gym/sessions', id: 'x' }],
    ['fhir_read', { resourceType: 'Patient', id: '../p1' }],
    ['fhir_read', { resourceType: 'Patient' }],
    ['fhir_search', { resourceType: 'Patient', params: { name: { nested: true } } }],
    ['fhir_patch', { resourceType: 'Patient', id: 'p1', patch: [{ op: 'explode', path: '/x' }] }],
    ['finish', {}],
    ['terminology_search', { query: '' }],
    ['terminology_lookup', { system: 'http://loinc.org' }],
    ['run_view', { view: 'not an object' }],
    ['sql_query', { query: 'SELECT 1', views: [] }],
    ['evidence_search', { patient: '../x' }],
    ['no_such_tool', {}],
  ] as const) {
    const res = await gym.json('POST', `/gym/sessions/${s.id}/tools/${name}`, args, { 'content-type': 'application/json' });
    t.equal(res.body.isError, true, `${name} ${JSON.stringify(args)}`);
  }
  t.same((await gym.json('GET', `/gym/sessions/${s.id}/log`)).body.entries, [], 'nothing reached the FHIR base');
  t.equal((await gym.json('GET', `/gym/sessions/${s.id}`)).body.state, 'active');
});

t.test('tool options from the session: attachments decoded to text, results truncated', async (t) => {
  const note = 'Assessment: hypokalemia, K 3.1. Plan: KCl 20 mEq PO BID.';
  const doc = {
    resourceType: 'DocumentReference', id: 'd1', status: 'current', subject: { reference: 'Patient/p1' },
    content: [
      { attachment: { contentType: 'text/plain', data: Buffer.from(note).toString('base64') } },
      { attachment: { contentType: 'application/pdf', data: 'JVBERi0xLjQK' } },
    ],
  };
  const gym = await startGym(t, {}, [...basePatients, doc as any]);
  const decoding = await gym.createSession();
  const raw = await gym.createSession({ toolOptions: { decodeAttachments: false, maxResultChars: 100 } });
  t.same((await gym.json('GET', `/gym/sessions/${raw.id}`)).body.toolOptions, { decodeAttachments: false, maxResultChars: 100 }, 'recorded in the session');

  const decoded = JSON.parse((await gym.json('POST', `/gym/sessions/${decoding.id}/tools/fhir_read`, { resourceType: 'DocumentReference', id: 'd1' }, { 'content-type': 'application/json' })).body.text);
  t.equal(decoded.content[0].attachment.decodedText, note);
  t.notOk('data' in decoded.content[0].attachment);
  t.equal(decoded.content[1].attachment.data, 'JVBERi0xLjQK', 'binary media stay base64');

  const cut = (await gym.json('POST', `/gym/sessions/${raw.id}/tools/fhir_read`, { resourceType: 'DocumentReference', id: 'd1' }, { 'content-type': 'application/json' })).body.text as string;
  const [kept, marker] = cut.split('... [truncated: ');
  t.equal(kept.length, 100);
  t.ok(kept.startsWith('{"resourceType":"DocumentReference"'));
  t.match(marker, /^\d{3} characters, showing the first 100\]$/);
  t.notMatch(cut, /decodedText/);
  // The stored resource is untouched by rendering.
  t.equal((await gym.json('GET', `/fhir/_session/${decoding.id}/DocumentReference/d1`)).body.content[0].attachment.data, doc.content[0].attachment.data);
});

t.test('helpers: query strings, decoding, truncation', async (t) => {
  t.equal(queryString({ a: 1, b: ['x', 'y'], c: true }), '?a=1&b=x&b=y&c=true');
  t.equal(queryString({}), '');
  t.equal(queryString(undefined), '');
  t.equal(queryString({ code: 'http://loinc.org|2823-3' }), '?code=http%3A%2F%2Floinc.org%7C2823-3');
  const value = { a: [{ contentType: 'application/fhir+json', data: Buffer.from('{"x":1}').toString('base64') }], b: { contentType: 'text/html; charset=utf-8', data: Buffer.from('<p>hi</p>').toString('base64') } };
  decodeAttachments(value);
  t.same(value, { a: [{ contentType: 'application/fhir+json', decodedText: '{"x":1}' }], b: { contentType: 'text/html; charset=utf-8', decodedText: '<p>hi</p>' } });
  t.equal(truncate('abcdef', null), 'abcdef');
  t.equal(truncate('abcdef', 6), 'abcdef');
  t.equal(truncate('abcdefg', 6), 'abcdef... [truncated: 7 characters, showing the first 6]');
});
