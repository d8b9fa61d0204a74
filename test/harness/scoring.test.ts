import t from 'tap';
import { checkpointScore, choose, formatSummary, passHatK, summarize } from '../../harness/scoring.ts';
import type { EpisodeResult } from '../../harness/types.ts';
import type { Verdict } from '../../contracts/task.ts';

const verdict = (id: string, pass: boolean, weight = 1, category: Verdict['category'] = 'action_execution', failure?: string): Verdict =>
  ({ id, category, weight, critical: false, pass, score: pass ? 1 : 0, evidence: [], ...(failure ? { failure } : {}) });

function episode(task: string, pass: boolean, extra: Partial<EpisodeResult> = {}): EpisodeResult {
  const verdicts = [verdict('a', true, 3, 'data_retrieval'), verdict('b', pass, 1, 'action_execution', pass ? undefined : 'wrong_action')];
  return {
    task, specialty: task.split('/')[0], workflows: ['deprescribing'], variant: 'p1', trial: 1, agent: 'x', session: 's',
    pass, outcome: pass ? 'passed' : 'failed', startedAt: '2026-01-01T00:00:00.000Z', endedAt: '2026-01-01T00:00:02.000Z', durationMs: 2000,
    score: checkpointScore(verdicts), verdicts, answer: '', toolCalls: 10, writes: 1, codeLookupMisses: [], log: [], changes: [], transcript: [], ...extra,
  };
}

t.test('choose', async (t) => {
  t.equal(choose(4, 2), 6);
  t.equal(choose(5, 0), 1);
  t.equal(choose(3, 4), 0);
  t.equal(choose(10, 3), 120);
});

t.test('pass^k against hand-computed values', async (t) => {
  // Task A: 3 of 4 pass; task B: 1 of 4; task C: 4 of 4.
  const tasks = [{ n: 4, c: 3 }, { n: 4, c: 1 }, { n: 4, c: 4 }];
  t.equal(passHatK(tasks, 1), (3 / 4 + 1 / 4 + 1) / 3); // 0.6667
  t.equal(passHatK(tasks, 2), (3 / 6 + 0 + 1) / 3); // C(3,2)/C(4,2) = 3/6
  t.equal(passHatK(tasks, 3), (1 / 4 + 0 + 1) / 3); // C(3,3)/C(4,3) = 1/4
  t.equal(passHatK(tasks, 4), (0 + 0 + 1) / 3);
  t.equal(passHatK(tasks, 5), undefined, 'k above n');
});

t.test('checkpoint score is weighted; pass@1 needs every checkpoint', async (t) => {
  t.equal(checkpointScore([verdict('a', true, 3), verdict('b', false, 1)]), 0.75);
  const episodes = [episode('neph/a', true), episode('neph/a', false), episode('endo/b', true), episode('endo/b', true)];
  const s = summarize(episodes);
  t.equal(s.pass1, 0.75);
  t.equal(s.checkpointScore, (1 + 0.75 + 1 + 1) / 4);
  t.equal(s.passHatK['1'], (0.5 + 1) / 2);
  t.equal(s.passHatK['2'], (0 + 1) / 2, 'neph/a: C(1,2)/C(2,2) = 0');
  t.same(s.bySpecialty.neph, { episodes: 2, passRate: 0.5, meanScore: 0.875 });
  t.same(s.byCategory.action_execution, { checkpoints: 4, passed: 3, passRate: 0.75 });
  t.same(s.failures, { wrong_action: 1 });
  t.same(s.toolCalls, { mean: 10, min: 10, max: 10 });
  t.match(formatSummary(s), /pass@1 75\.0%/);
  t.match(formatSummary(s), /k=2: 50\.0%/);
});

t.test('infrastructure errors are counted apart, out of every rate; failed episodes name their first failing checkpoint', async (t) => {
  const infra = (task: string) => episode(task, false, { outcome: 'infra_error', infraError: 'model API failed after 4 retries: 500', tokens: { prompt: 50, completion: 0 }, cost: 0.5, retries: 4 });
  const episodes = [
    episode('neph/a', true, { tokens: { prompt: 100, completion: 10 }, cost: 1 }), episode('neph/a', false, { error: 'no finish within 3 turns' }),
    infra('neph/a'), infra('endo/b'), episode('endo/b', true),
  ];
  const s = summarize(episodes);
  t.equal(s.episodes, 3, 'scored episodes');
  t.equal(s.infraErrors, 2);
  t.equal(s.pass1, 2 / 3, 'the denominator leaves the infrastructure errors out');
  t.same(s.passHatK, { 1: (1 / 2 + 1) / 2, 2: 0 }, 'n per task counts scored episodes: endo/b has 1 (not eligible for k=2), neph/a 2 with 1 pass');
  t.same(s.byCategory.action_execution, { checkpoints: 3, passed: 2, passRate: 2 / 3 }, 'no verdict of an infrastructure error is counted');
  t.same(s.failures, { wrong_action: 1 });
  t.equal(s.agentErrors, 1);
  t.same(s.byTask['neph/a'], { episodes: 2, passRate: 0.5, meanScore: 0.875, passes: 1, infraErrors: 1, tokens: { prompt: 150, completion: 10 }, cost: 1.5, meanDurationMs: 2000 });
  t.same(s.byTask['endo/b'].infraErrors, 1);
  t.same(s.tokens, { prompt: 200, completion: 10 }, 'tokens spent on failed infrastructure count in the totals');
  t.equal(s.cost, 2);
  t.equal(s.retries, 8);
  t.equal(s.episodeTimeMs, 10_000);
  t.same(s.failedEpisodes, [{ task: 'neph/a', variant: 'p1', trial: 1, checkpoint: 'b', failure: 'wrong_action', error: 'no finish within 3 turns' }]);
  t.same(s.infraErrorEpisodes.map((e) => e.task), ['neph/a', 'endo/b']);
  const text = formatSummary(s);
  t.match(text, /episodes 5 over 2 task\(s\): 3 scored, 2 infrastructure error\(s\) excluded/);
  t.match(text, /pass@1 66\.7%/);
  t.match(text, /by task\n\s+task\s+episodes\s+passes\s+pass@1\s+score\s+infra errors\s+tokens\s+cost\s+mean time\n\s+endo\/b\s+1\s+1\s+100\.0%/);
  t.match(text, /failed episodes \(first failing checkpoint\)\n\s+neph\/a p1 t1: b \[wrong_action\] - no finish within 3 turns/);
  t.match(text, /infrastructure errors \(not scored\)\n\s+neph\/a p1 t1: model API failed after 4 retries: 500/);
});
