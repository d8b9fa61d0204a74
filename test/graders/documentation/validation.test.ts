// The validation set as a regression guard: the verifier keeps its accuracy and never calls a contradicted claim
// supported; the ranker keeps its recall@10; the set itself is the size and mix the issue asks for.
import t from 'tap';
import { loadValidationSet, scoreRetrieval, scoreVerifier } from '../../../graders/documentation/validation/evaluate.ts';

const set = loadValidationSet();

t.test('the set: at least 200 labelled claims, every injected error kind present', async (t) => {
  const lines = set.notes.flatMap((n) => n.lines);
  t.ok(lines.length >= 200, `${lines.length} claims`);
  const made = new Set(lines.map((l) => l.made));
  for (const kind of ['swapped-value', 'wrong-date', 'fabricated-medication', 'wrong-laterality', 'negated-problem', 'wrong-dose', 'fabricated-citation']) t.ok(made.has(kind), kind);
  for (const note of set.notes) t.ok(set.charts[note.patient]?.length, `chart for ${note.patient}`);
});

t.test('verifier: accuracy >= 95% and no contradicted claim called supported', async (t) => {
  const score = scoreVerifier(set);
  t.ok(score.accuracy >= 0.95, `accuracy ${score.accuracy}`, { errors: score.errors });
  t.equal(score.contradictedCalledSupported, 0);
  t.equal(score.matrix.unsupported.supported, 0, 'no fabrication called supported');
});

t.test('ranker: recall@10 >= 90% of the declared key facts', async (t) => {
  const score = scoreRetrieval(set);
  t.ok(score.pairs >= 30, `${score.pairs} (chart, topic) pairs`);
  t.ok(score.recallAt10 >= 0.9, `recall@10 ${score.recallAt10}`, { misses: score.misses });
});
