// Issue 5 item 6: nothing a session can reach (its FHIR base, the gym API about it, its tools, /mcp) reveals grader
// material: checkpoints, expected values, maintainer notes, reference solution or grader code. Issue 19: the task
// catalogue (GET /gym/tasks, /gym/tasks/{id}) publishes each task's rubric outline (checkpoint ids, categories,
// descriptions, weights) and guidelines, and still nothing a grader computes or holds.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildApp } from '../../../server/app.ts';
import { TaskFolderService } from '../../../harness/task-service.ts';
import { readTaskSpec } from '../../../harness/task-loader.ts';
import { FIXTURE_TASKS } from '../../fixtures/fixture-tasks.ts';

const HK = 'nephrology/hyperkalemia-ace-inhibitor';
const spec = readTaskSpec(HK, FIXTURE_TASKS);
const code = (file: string) => readFileSync(join(FIXTURE_TASKS, HK, file), 'utf8');

/** What the catalogue shows of a task: its rubric outline. */
const rubric = spec.checkpoints.flatMap((c) => [c.id, c.description]);

/** Text that must never leave the task folder, catalogue or not. */
const graderOnly: string[] = [
  spec.notes!,
  spec.deliverables.answer!,
  ...spec.deliverables.actions!,
  'export const checks', 'export default async function', 'graders/lib',
  // Distinctive lines of solution.ts and grader.ts (long enough not to occur in chart data by chance).
  ...[code('solution.ts'), code('grader.ts')].flatMap((text) => text.split('\n').map((l) => l.trim()).filter((l) => l.length >= 40 && !l.startsWith('//')).slice(0, 15)),
  // What the grader compares with for hk-ramos: the latest potassium it expects in the answer (grader.ts computes it).
  'expected 5.9',
];

/** Text that must never reach a session: grader material and the rubric too. */
const secrets: string[] = [...rubric, ...graderOnly];

function leaks(body: string, list = secrets): string[] {
  return list.filter((s) => body.includes(s));
}

t.test('the secret list is real: the task folder itself would leak', async (t) => {
  t.ok(secrets.length > 20);
  t.ok(leaks(JSON.stringify(spec)).length >= spec.checkpoints.length * 2, 'task.json holds checkpoints');
  t.ok(leaks(code('grader.ts')).length > 0, 'grader.ts');
  t.ok(leaks(code('solution.ts')).length > 0, 'solution.ts');
});

t.test('a task session: FHIR base, gym API, tools and /mcp show no grader material', async (t) => {
  const { app } = buildApp({ tasks: new TaskFolderService(FIXTURE_TASKS) });
  t.teardown(() => app.close());
  const created = await app.inject({ method: 'POST', url: '/gym/sessions', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ task: HK, variant: 'hk-ramos' }) });
  t.equal(created.statusCode, 201);
  t.same(leaks(created.body), [], 'POST /gym/sessions');
  const { id } = created.json();
  const base = `/fhir/_session/${id}`;

  const gets = [
    `${base}/metadata`, `${base}/Patient/hk-ramos`, `${base}/Patient/hk-ramos/$everything`, `${base}/Patient/hk-ramos/$evidence?topic=hyperkalemia`,
    `${base}/_history`, `${base}/Observation?patient=hk-ramos`, `${base}/MedicationRequest?patient=hk-ramos`,
    ...['Task', 'Basic', 'List', 'Library', 'PlanDefinition', 'Questionnaire', 'DocumentReference', 'Binary', 'Composition', 'Communication', 'Provenance', 'AuditEvent']
      .map((type) => `${base}/${type}?_count=1000`),
    `${base}/../../../tasks/${HK}/grader.ts`, `${base}/%2e%2e/%2e%2e/%2e%2e/tasks/${HK}/task.json`, `${base}/tasks/${HK}/solution.ts`,
    `/tasks/${HK}/task.json`, `/tasks/${HK}/grader.ts`, `/${HK}/solution.ts`, `/gym/tasks/${HK}/grader.ts`, `/gym/tasks/${HK}/solution`,
    `/gym/sessions/${id}`, '/gym/sessions', `/gym/sessions/${id}/log`, `/gym/sessions/${id}/changes`, '/gym/tools',
  ];
  for (const url of gets) {
    const res = await app.inject({ method: 'GET', url });
    t.ok(res.statusCode < 500, `${url} -> ${res.statusCode}`);
    t.same(leaks(res.body), [], `GET ${url}`);
  }
  const summary = (await app.inject({ method: 'GET', url: `/gym/sessions/${id}` })).json();
  for (const key of ['checkpoints', 'solution', 'grader', 'notes', 'deliverables', 'binding', 'fixture']) t.notOk(key in summary, `summary has no ${key}`);
  t.equal(summary.instruction, spec.instruction.replaceAll('{patient}', 'hk-ramos'), 'the instruction is all the agent gets from the task');

  const view = { resourceType: 'ViewDefinition', name: 'b', status: 'active', resource: 'Basic', select: [{ column: [{ name: 'id', path: 'getResourceKey()' }] }] };
  const calls: [string, unknown][] = [
    ['fhir_search', { resourceType: 'Task' }], ['fhir_search', { resourceType: 'Basic' }], ['fhir_search', { resourceType: 'DocumentReference', params: { patient: 'hk-ramos' } }],
    ['fhir_read', { resourceType: 'Patient', id: 'hk-ramos' }], ['fhir_history', { resourceType: 'MedicationRequest' }],
    ['evidence_search', { patient: 'hk-ramos', question: 'what potassium did we act on' }],
    ['terminology_search', { query: 'reviewed potassium' }], ['terminology_lookup', { system: 'http://loinc.org', code: '2823-3' }],
    ['run_view', { view }], ['sql_query', { query: 'SELECT count(*) AS n FROM b', views: [view] }],
  ];
  for (const [name, args] of calls) {
    const res = await app.inject({ method: 'POST', url: `/gym/sessions/${id}/tools/${name}`, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(args) });
    t.equal(res.statusCode, 200, name);
    t.same(leaks(res.body), [], `tool ${name} ${JSON.stringify(args)}`);
  }

  // MCP: the initialize result carries the instruction only; tools/list is the shared definitions.
  for (const method of ['initialize', 'tools/list']) {
    const payload = method === 'initialize'
      ? { jsonrpc: '2.0', id: 1, method, params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }
      : { jsonrpc: '2.0', id: 2, method, params: {} };
    const res = await app.inject({ method: 'POST', url: `/mcp?session=${id}`, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, payload: JSON.stringify(payload) });
    t.equal(res.statusCode, 200, method);
    t.same(leaks(res.body), [], `/mcp ${method}`);
    if (method === 'initialize') t.match(res.json().result.instructions, /Patient\/hk-ramos/);
  }
});

t.test('the task catalogue: the rubric outline and guidelines, no grader material', async (t) => {
  const { app } = buildApp({ tasks: new TaskFolderService(FIXTURE_TASKS) });
  t.teardown(() => app.close());
  for (const url of ['/gym/tasks', `/gym/tasks/${HK}`, '/gym/tasks?specialty=nephrology']) {
    const res = await app.inject({ method: 'GET', url });
    t.equal(res.statusCode, 200, url);
    t.same(leaks(res.body, graderOnly), [], `GET ${url}`);
    t.ok(leaks(res.body, rubric).length > 0, `GET ${url} shows the rubric`);
  }
  const card = (await app.inject({ method: 'GET', url: `/gym/tasks/${HK}` })).json();
  t.same(Object.keys(card).sort(), ['checkpoints', 'continuation', 'guidelines', 'id', 'level', 'specialty', 'split', 'title', 'variantSplits', 'variants', 'workflows']);
  for (const c of card.checkpoints) t.same(Object.keys(c).sort(), ['category', 'critical', 'description', 'id', 'weight'], 'no standard checks, no expected values');
});

t.test('the grade itself shows evidence only once the episode is over', async (t) => {
  const { app } = buildApp({ tasks: new TaskFolderService(FIXTURE_TASKS) });
  t.teardown(() => app.close());
  const created = await app.inject({ method: 'POST', url: '/gym/sessions', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ task: HK, variant: 'hk-ramos' }) });
  const { id } = created.json();
  const graded = await app.inject({ method: 'POST', url: `/gym/sessions/${id}/grade` });
  t.equal(graded.statusCode, 200);
  t.ok(leaks(graded.body, graderOnly).length > 0, 'the grade carries the grader\'s evidence');
  const write = await app.inject({ method: 'POST', url: `/fhir/_session/${id}/Basic`, headers: { 'content-type': 'application/fhir+json' }, payload: JSON.stringify({ resourceType: 'Basic', code: { text: 'x' } }) });
  t.equal(write.statusCode, 409, 'so the session takes no more writes');
  t.equal((await app.inject({ method: 'POST', url: `/gym/sessions/${id}/submit`, headers: { 'content-type': 'application/json' }, payload: '{"answer":"K 5.9"}' })).statusCode, 409, 'nor an answer');
  t.equal((await app.inject({ method: 'POST', url: `/gym/sessions/${id}/reset` })).statusCode, 409, 'nor a reset');
});
