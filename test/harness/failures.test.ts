// Failure categories, including code-lookup failures found in the audit log.
import t from 'tap';
import { emptyCodeSearches, failureCategory, headWord, isTerminologyCall } from '../../harness/failures.ts';
import { runEpisode } from '../../harness/episode.ts';
import { FhirClient } from '../../contracts/fhir-client.ts';
import { GymClient } from '../../harness/gym-client.ts';
import { startBenchServer } from '../../harness/server.ts';
import { loadTask } from '../../harness/task-loader.ts';
import type { Agent } from '../../harness/agents/agent.ts';
import type { AuditEntry } from '../../contracts/gym-api.ts';
import type { CodeLookupMiss } from '../../harness/types.ts';
import type { Verdict } from '../../contracts/task.ts';
import { FIXTURE_TASKS } from '../fixtures/fixture-tasks.ts';

/** An audit-log row as GET /gym/sessions/{id}/log returns it. */
function entry(seq: number, method: string, pathAndQuery: string, extra: Partial<AuditEntry> = {}): AuditEntry {
  const [path, query = ''] = pathAndQuery.split('?');
  return { seq, time: '2024-03-13T09:00:00Z', method, path, query: [...new URLSearchParams(query)], status: 200, resourceIds: [], latencyMs: 1, write: method !== 'GET', ...extra };
}

const miss = (kind: CodeLookupMiss['kind']): CodeLookupMiss => ({ kind, seq: 1, search: 'Observation?code=K', lookups: [], message: 'm' });

t.test('headWord', async (t) => {
  t.equal(headWord('Potassium [Moles/volume] in Serum or Plasma'), 'potassium');
  t.equal(headWord('Hemoglobin A1c/Hemoglobin.total in Blood'), 'hemoglobin');
});

t.test('failureCategory', async (t) => {
  const v = (category: Verdict['category']): Verdict => ({ id: 'x', category, weight: 1, critical: false, pass: false, score: 0, evidence: [] });
  const episode = { writes: 0, answer: undefined, codeLookupMisses: [], toolCalls: 3 };
  t.equal(failureCategory(v('action_execution'), episode), 'no_action');
  t.equal(failureCategory(v('clinical_reasoning'), episode), 'no_answer');
  t.equal(failureCategory(v('clinical_reasoning'), { ...episode, answer: '5' }), 'wrong_answer');
  t.equal(failureCategory(v('action_execution'), { ...episode, writes: 1 }), 'wrong_action');
  t.equal(failureCategory(v('data_retrieval'), { ...episode, codeLookupMisses: [miss('code_guessed')] }), 'code_guessed');
  t.equal(failureCategory(v('data_retrieval'), { ...episode, codeLookupMisses: [miss('code_looked_up_but_missed')] }), 'code_looked_up_but_missed');
  t.equal(failureCategory(v('action_execution'), { ...episode, writes: 1, codeLookupMisses: [miss('code_looked_up_but_missed'), miss('code_guessed')] }), 'code_guessed', 'one guess is enough');
  t.equal(failureCategory(v('documentation'), { ...episode, writes: 1, codeLookupMisses: [miss('code_guessed')] }), 'wrong_action', 'documentation is not about codes');
  t.equal(failureCategory(v('safety'), episode), 'safety_violation');
  t.equal(failureCategory({ ...v('safety'), failure: 'custom' }, episode), 'custom');
});

t.test('terminology calls: operations, terminology resources, tools and terminology modifiers; failures do not count', async (t) => {
  for (const e of [
    entry(1, 'GET', 'CodeSystem/$lookup?system=http://loinc.org&code=2823-3'),
    entry(2, 'GET', 'ValueSet/$expand?url=http://loinc.org/vs&filter=potassium'),
    entry(3, 'POST', 'ValueSet/$expand', { tool: 'terminology_search' }),
    entry(4, 'GET', 'ValueSet/$validate-code?url=http://loinc.org/vs&code=2823-3'),
    entry(5, 'GET', 'ConceptMap/$translate?system=http://ehr-gym.example/fhir/CodeSystem/flowsheet&code=K'),
    entry(6, 'GET', 'CodeSystem/loinc/$lookup?code=2823-3'),
    entry(7, 'GET', 'CodeSystem/$subsumes?system=http://snomed.info/sct&codeA=1&codeB=2'),
    entry(8, 'GET', 'ValueSet?url=http://loinc.org/vs'),
    entry(9, 'GET', 'Observation?patient=p1&code:text=potassium'),
    entry(10, 'GET', 'Condition?patient=p1&code:below=http://snomed.info/sct|709044004'),
  ]) t.ok(isTerminologyCall(e), `${e.path} ${e.tool ?? ''}`);
  for (const e of [
    entry(11, 'GET', 'Observation?patient=p1&code=http://loinc.org|2823-3'),
    entry(12, 'GET', 'Patient/p1'),
    entry(13, 'GET', 'CodeSystem/$lookup?system=http://loinc.org&code=0000-0', { status: 404, tool: 'terminology_lookup' }),
    entry(14, 'POST', 'ValueSet/$expand', { status: 400 }),
  ]) t.notOk(isTerminologyCall(e), `${e.path} ${e.status}`);
});

t.test('empty code searches from audit-log fixtures: guessed without a preceding terminology call, looked up with one', async (t) => {
  const search = (seq: number, code: string, extra: Partial<AuditEntry> = {}) => entry(seq, 'GET', `Observation?patient=Patient/p1&code=${encodeURIComponent(code)}`, extra);
  const kinds = (log: AuditEntry[]) => emptyCodeSearches(log).map((s) => [s.entry.seq, s.kind, s.lookups]);

  t.same(kinds([entry(1, 'GET', 'Patient/p1', { resourceIds: ['Patient/p1'] }), search(2, 'K')]), [[2, 'code_guessed', []]], 'no terminology call at all');
  t.same(kinds([
    entry(1, 'GET', 'ValueSet/$expand?url=http://loinc.org?fhir_vs&filter=potassium&count=10', { tool: 'terminology_search' }),
    search(2, 'http://loinc.org|6298-4'),
  ]), [[2, 'code_looked_up_but_missed', [1]]], 'looked up first, still missed');
  t.same(kinds([search(1, 'K'), entry(2, 'GET', 'CodeSystem/$lookup?system=http://loinc.org&code=2823-3'), search(3, 'http://loinc.org|2823-3')]),
    [[1, 'code_guessed', []], [3, 'code_looked_up_but_missed', [2]]], 'only calls before the search count');
  t.same(kinds([entry(1, 'GET', 'CodeSystem/$lookup?system=http://loinc.org&code=9999-9', { status: 404 }), search(2, 'http://loinc.org|9999-9')]),
    [[2, 'code_guessed', []]], 'a failed lookup taught nothing');
  t.same(kinds([search(2, 'K'), entry(1, 'POST', 'ValueSet/$expand', { tool: 'terminology_search' })]), [[2, 'code_looked_up_but_missed', [1]]], 'ordered by seq, not array order');
  t.same(kinds([
    search(1, 'http://loinc.org|2823-3', { resourceIds: ['Observation/o1'] }),
    search(2, 'K', { status: 400 }),
    entry(3, 'GET', 'Observation?code=K'),
    entry(4, 'GET', 'Observation?patient=p1&code:text=potassium'),
  ]), [], 'found something, failed, no patient, or a text search: no candidate');
  t.same(emptyCodeSearches([search(1, 'http://loinc.org|2823-3,K')])[0].tokens, ['http://loinc.org|2823-3', 'K']);
});

t.test('a search by the local code finds nothing while the chart holds potassium under LOINC: a code-lookup miss', async (t) => {
  const server = await startBenchServer({ patients: 0, tasksDir: FIXTURE_TASKS });
  t.teardown(() => server.close());
  const gym = new GymClient(server.url);
  const task = await loadTask('nephrology/hyperkalemia-ace-inhibitor', FIXTURE_TASKS);
  const searcher = (code: string): Agent => ({
    name: 'searcher',
    run: async ({ session, patient }) => {
      await new FhirClient(session.fhirBaseUrl).search('Observation', { patient, code });
      return { transcript: [] };
    },
  });
  const local = await runEpisode({ task, variant: 'hk-ramos', trial: 1, agent: searcher('K'), gym });
  t.equal(local.result.codeLookupMisses.length, 1, local.result.codeLookupMisses.map((m) => m.message).join('\n'));
  t.match(local.result.codeLookupMisses[0], { kind: 'code_guessed', search: 'Observation?code=K', holder: /^Observation\/hk-ramos-k-\d$/, lookups: [] });
  t.match(local.result.codeLookupMisses[0].message, /Observation\?code=K \(with no terminology call before it\) found nothing, but Observation\/hk-ramos-k-\d holds "potassium"/);
  t.equal(local.result.verdicts.find((v) => v.id === 'reviewed_potassium')?.failure, 'code_guessed');

  // The same search after a terminology_search that offered the local code: looked up, and still missed.
  const lookingUp: Agent = {
    name: 'looker',
    run: async ({ session, patient, gym }) => {
      const found = await gym.callTool(session.id, 'terminology_search', { query: 'potassium', system: 'http://ehr-gym.example/fhir/CodeSystem/flowsheet' });
      t.match(found.text, /"code":"K"/, 'the tool offered K');
      await new FhirClient(session.fhirBaseUrl).search('Observation', { patient, code: 'K' });
      return { transcript: [] };
    },
  };
  const looked = await runEpisode({ task, variant: 'hk-ramos', trial: 1, agent: lookingUp, gym });
  t.equal(looked.result.codeLookupMisses.length, 1);
  t.match(looked.result.codeLookupMisses[0], { kind: 'code_looked_up_but_missed', lookups: [Number] });
  t.match(looked.result.codeLookupMisses[0].message, /\(after 1 terminology call\(s\)\) found nothing/);
  t.equal(looked.result.verdicts.find((v) => v.id === 'reviewed_potassium')?.failure, 'code_looked_up_but_missed');

  // A code that exists in no system is a miss even though the chart cannot say which concept was meant.
  const invented = await runEpisode({ task, variant: 'hk-ramos', trial: 1, agent: searcher('http://loinc.org|9999-9'), gym });
  t.equal(invented.result.codeLookupMisses.length, 1);
  t.match(invented.result.codeLookupMisses[0], { kind: 'code_guessed', search: 'Observation?code=http://loinc.org|9999-9' });
  t.notOk(invented.result.codeLookupMisses[0].holder);
  t.match(invented.result.codeLookupMisses[0].message, /9999-9 is a code of no system this EHR uses/);

  // A1c is absent from this chart: an empty search for it is no code-lookup failure.
  const absent = await runEpisode({ task, variant: 'hk-ramos', trial: 1, agent: searcher('http://loinc.org|4548-4'), gym });
  t.same(absent.result.codeLookupMisses, []);
});
