// Failure categories, including code-lookup failures found in the audit log.
import t from 'tap';
import { failureCategory, headWord } from '../../harness/failures.ts';
import { runEpisode } from '../../harness/episode.ts';
import { FhirClient } from '../../harness/fhir-client.ts';
import { GymClient } from '../../harness/gym-client.ts';
import { startBenchServer } from '../../harness/server.ts';
import { loadTask } from '../../harness/task-loader.ts';
import type { Agent } from '../../harness/agents/agent.ts';
import type { Verdict } from '../../harness/types.ts';

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
  t.equal(failureCategory(v('data_retrieval'), { ...episode, codeLookupMisses: ['m'] }), 'code_lookup');
  t.equal(failureCategory(v('safety'), episode), 'safety_violation');
  t.equal(failureCategory({ ...v('safety'), failure: 'custom' }, episode), 'custom');
});

t.test('a search by the local code finds nothing while the chart holds potassium under LOINC: a code-lookup miss', async (t) => {
  const server = await startBenchServer({ patients: 0 });
  t.teardown(() => server.close());
  const gym = new GymClient(server.url);
  const task = await loadTask('nephrology/hyperkalemia-ace-inhibitor');
  const searcher = (code: string): Agent => ({
    name: 'searcher',
    run: async ({ session, patient }) => {
      await new FhirClient(session.fhirBaseUrl).search('Observation', { patient, code });
      return { transcript: [] };
    },
  });
  const local = await runEpisode({ task, variant: 'hk-ramos', trial: 1, agent: searcher('K'), gym });
  t.equal(local.result.codeLookupMisses.length, 1, local.result.codeLookupMisses.join('\n'));
  t.match(local.result.codeLookupMisses[0], /Observation\?code=K found nothing, but Observation\/hk-ramos-k-\d holds "potassium"/);
  t.equal(local.result.verdicts.find((v) => v.id === 'reviewed_potassium')?.failure, 'code_lookup');

  // A1c is absent from this chart: an empty search for it is no code-lookup failure.
  const absent = await runEpisode({ task, variant: 'hk-ramos', trial: 1, agent: searcher('http://loinc.org|4548-4'), gym });
  t.same(absent.result.codeLookupMisses, []);
});
