// The per-request deadline (resources/deadline.ts) on a fake clock: a 422 too-costly once the budget is spent.
import t from 'tap';
import { Deadline, NO_DEADLINE } from '../../resources/deadline.ts';
import { FhirError } from '../../resources/outcome.ts';

t.test('check() passes within the budget and throws 422 too-costly past it, naming the work', async (t) => {
  let now = 1000;
  const deadline = new Deadline(50, () => now);
  now = 1050;
  t.doesNotThrow(() => deadline.check('search'), 'at the budget');
  now = 1051;
  const err = (() => { try { deadline.check('include rounds'); } catch (e) { return e; } })();
  t.ok(err instanceof FhirError);
  t.equal((err as FhirError).status, 422);
  t.equal((err as FhirError).outcome.issue?.[0].code, 'too-costly');
  t.match((err as FhirError).outcome.issue?.[0].diagnostics, /time budget of 50 ms \(stopped during include rounds\)/);
});

t.test('a budget of 0 never expires', async (t) => {
  let now = 0;
  const deadline = new Deadline(0, () => now);
  now = Number.MAX_SAFE_INTEGER;
  t.doesNotThrow(() => deadline.check('x'));
  t.doesNotThrow(() => NO_DEADLINE.check('x'));
});
