// The MCP server, exercised with the SDK's own client: streamable HTTP at /mcp and stdio via `ehr-gym mcp`.
import t, { type Test } from 'tap';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { basePatients, startGym, type Gym } from './gym-harness.ts';
import { MCP_NO_SESSION } from '../../../server/gym/mcp.ts';
import { agentTools, gymTools } from '../../../server/tools/index.ts';

const projectRoot = new URL('../../../', import.meta.url).pathname;

function textOf(result: Awaited<ReturnType<Client['callTool']>>): string {
  return (result.content as { type: string; text: string }[])[0].text;
}

/** Call every tool once, in an order where each has something to act on; returns the results by tool. */
async function callEveryTool(t: Test, client: Client) {
  const results: Record<string, { text: string; isError: boolean }> = {};
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    const r = { text: textOf(result), isError: result.isError === true };
    results[name] = r;
    return r;
  };
  t.equal(JSON.parse((await call('fhir_read', { resourceType: 'Patient', id: 'p1' })).text).id, 'p1');
  const created = JSON.parse((await call('fhir_create', { resourceType: 'Patient', resource: { resourceType: 'Patient', name: [{ family: 'ViaMcp' }] } })).text);
  t.equal(created.name[0].family, 'ViaMcp');
  t.equal(JSON.parse((await call('fhir_update', { resourceType: 'Patient', id: created.id, resource: { ...created, gender: 'other' } })).text).gender, 'other');
  t.equal(JSON.parse((await call('fhir_patch', { resourceType: 'Patient', id: created.id, patch: [{ op: 'add', path: '/birthDate', value: '1970-01-01' }] })).text).birthDate, '1970-01-01');
  t.equal(JSON.parse((await call('fhir_history', { resourceType: 'Patient', id: created.id })).text).total, 3);
  const search = await call('fhir_search', { resourceType: 'Patient', params: { family: 'ViaMcp' } });
  t.same(JSON.parse(search.text).resources.map((r: any) => r.id), [created.id]);
  t.same(JSON.parse((await call('fhir_delete', { resourceType: 'Patient', id: created.id })).text), { deleted: `Patient/${created.id}` });
  const codes = JSON.parse((await call('terminology_search', { query: 'potassium', system: 'http://loinc.org' })).text);
  t.equal(codes.matches[0].code, '2823-3', 'terminology_search finds serum potassium');
  t.equal(JSON.parse((await call('terminology_lookup', { system: 'http://loinc.org', code: '2823-3' })).text).properties.COMPONENT, 'Potassium');
  const view = { resourceType: 'ViewDefinition', name: 'k', status: 'active', resource: 'Observation', select: [{ column: [
    { name: 'patient', path: 'subject.getReferenceKey(Patient)' }, { name: 'value', path: 'value.ofType(Quantity).value' }] }] };
  t.same(JSON.parse((await call('run_view', { view })).text), [{ patient: 'p1', value: 3.1 }], 'run_view rows');
  t.same(JSON.parse((await call('sql_query', { query: 'SELECT count(*) AS n FROM k WHERE value < 3.5', views: [view] })).text), [{ n: 1 }], 'sql_query rows');
  t.equal(JSON.parse((await call('evidence_search', { patient: 'p1', topic: 'hyperkalemia' })).text).items[0].resource.id, 'o1', 'evidence_search ranks the potassium');
  t.equal((await call('finish', { answer: 'done via MCP' })).isError, false);
  const bad = await call('fhir_read', { resourceType: 'Patient', id: 'missing' });
  t.equal(bad.isError, true, 'FHIR errors are tool errors');
  return { results, createdId: created.id as string };
}

async function assertToolsListed(t: Test, client: Client) {
  const { tools } = await client.listTools();
  t.same(tools.map((x) => x.name), gymTools.map((x) => x.name));
  for (const tool of gymTools) t.same(tools.find((x) => x.name === tool.name)?.inputSchema, tool.parameters, `${tool.name} schema`);
  // Annotations from each tool's readOnly flag: reads are read-only, writes and finish may change the session.
  for (const tool of agentTools) {
    t.same(tools.find((x) => x.name === tool.definition.name)?.annotations, { readOnlyHint: tool.readOnly, destructiveHint: !tool.readOnly, openWorldHint: false }, `${tool.definition.name} annotations`);
  }
  t.same(tools.filter((x) => x.annotations?.readOnlyHint).map((x) => x.name),
    ['fhir_search', 'fhir_read', 'fhir_history', 'terminology_search', 'terminology_lookup', 'run_view', 'sql_query', 'evidence_search']);
}

async function assertAudited(t: Test, gym: Gym, id: string) {
  const log = (await gym.json('GET', `/gym/sessions/${id}/log`)).body.entries;
  t.same(log.map((e: any) => e.tool), ['fhir_read', 'fhir_create', 'fhir_update', 'fhir_patch', 'fhir_history', 'fhir_search', 'fhir_delete',
    'terminology_search', 'terminology_lookup', 'run_view', 'sql_query', 'evidence_search', 'fhir_read']);
  const session = (await gym.json('GET', `/gym/sessions/${id}`)).body;
  t.equal(session.submission.answer, 'done via MCP');
}

t.test('streamable HTTP at /mcp, session bound by header or ?session=', async (t) => {
  const gym = await startGym(t);
  const address = await gym.app.listen({ port: 0, host: '127.0.0.1' });
  const s = await gym.createSession({ now: '2023-11-13T10:15:00Z' });
  const other = await gym.createSession();

  const client = new Client({ name: 'ehr-gym-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${address}/mcp`), { requestInit: { headers: { 'x-ehr-gym-session': s.id } } }));
  t.teardown(() => client.close());
  await assertToolsListed(t, client);
  const { createdId } = await callEveryTool(t, client);
  await assertAudited(t, gym, s.id);
  t.equal((await gym.json('GET', `/fhir/_session/${other.id}/Patient/${createdId}`)).status, 404, 'the other session saw nothing');
  t.equal((await gym.json('GET', `/fhir/Patient/${createdId}`)).status, 404);

  const byQuery = new Client({ name: 'ehr-gym-test', version: '1.0.0' });
  await byQuery.connect(new StreamableHTTPClientTransport(new URL(`${address}/mcp?session=${other.id}`)));
  t.teardown(() => byQuery.close());
  const read = await byQuery.callTool({ name: 'fhir_update', arguments: { resourceType: 'Patient', id: 'p2', resource: { ...basePatients[1], gender: 'other' } } });
  t.equal(read.isError, false);
  t.equal((await gym.json('GET', `/fhir/_session/${other.id}/Patient/p2`)).body.gender, 'other');
  t.equal((await gym.json('GET', `/fhir/_session/${s.id}/Patient/p2`)).body.gender, 'male');
});

t.test('/mcp without a live session: a JSON-RPC error (404), also to the SDK client; GET is 405', async (t) => {
  const gym = await startGym(t);
  const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
  for (const url of ['/mcp', '/mcp?session=AAAAAAAAAAAAAAAAAAAAAAAA', '/mcp?session=../../gym']) {
    const res = await gym.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, payload: JSON.stringify(init) });
    t.equal(res.statusCode, 404, url);
    const body = res.json();
    t.same(Object.keys(body).sort(), ['error', 'id', 'jsonrpc'], `${url}: a JSON-RPC response`);
    t.equal(body.id, 1, 'the request id is echoed');
    t.equal(body.error.code, MCP_NO_SESSION);
    t.match(body.error.message, url === '/mcp' ? /Name the gym session with the x-ehr-gym-session header/ : /No gym session '.*' \(unknown or expired\)/);
  }
  t.equal((await gym.inject({ method: 'GET', url: '/mcp' })).statusCode, 405);

  // A session that ends (deleted, as an expired one is) between two calls of a connected client.
  const address = await gym.app.listen({ port: 0, host: '127.0.0.1' });
  const s = await gym.createSession();
  const client = new Client({ name: 'ehr-gym-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${address}/mcp?session=${s.id}`)));
  t.teardown(() => client.close());
  t.equal((await client.callTool({ name: 'fhir_read', arguments: { resourceType: 'Patient', id: 'p1' } })).isError, false);
  await gym.json('DELETE', `/gym/sessions/${s.id}`);
  await t.rejects(client.callTool({ name: 'fhir_read', arguments: { resourceType: 'Patient', id: 'p1' } }), /No gym session '.*' \(unknown or expired\)/);
});

t.test('stdio: `ehr-gym mcp --url --session` with the SDK client', async (t) => {
  const gym = await startGym(t);
  const address = await gym.app.listen({ port: 0, host: '127.0.0.1' });
  const s = await gym.createSession();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', 'bin/ehr-gym.ts', 'mcp', '--url', address, '--session', s.id],
    cwd: projectRoot,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'ehr-gym-test', version: '1.0.0' });
  await client.connect(transport);
  t.teardown(() => client.close());
  await assertToolsListed(t, client);
  await callEveryTool(t, client);
  await assertAudited(t, gym, s.id);
});

t.test('stdio: `ehr-gym mcp` without --session creates one in its own in-process server', async (t) => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', 'bin/ehr-gym.ts', 'mcp', '--db', ':memory:', '--now', '2023-11-13T10:15:00Z'],
    cwd: projectRoot,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'ehr-gym-test', version: '1.0.0' });
  await client.connect(transport);
  t.teardown(() => client.close());
  const created = await client.callTool({ name: 'fhir_create', arguments: { resourceType: 'Patient', resource: { resourceType: 'Patient' } } });
  t.equal(created.isError, false);
  t.ok(JSON.parse(textOf(created)).meta.lastUpdated.startsWith('2023-11-13'), 'the created session has the given clock');
});

t.test('GET /gym/tools?format=mcp lists the tools as tools/list does, annotations included', async (t) => {
  const gym = await startGym(t);
  const { status, body } = await gym.json('GET', '/gym/tools?format=mcp');
  t.equal(status, 200);
  for (const tool of agentTools) {
    t.same((body as { name: string; annotations?: unknown }[]).find((x) => x.name === tool.definition.name)?.annotations,
      { readOnlyHint: tool.readOnly, destructiveHint: !tool.readOnly, openWorldHint: false }, `${tool.definition.name} annotations`);
  }
});
