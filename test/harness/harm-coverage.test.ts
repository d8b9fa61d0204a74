// Issue 13: every patient task runs the generic harm rules (graders/lib/harm) besides its own checkpoints, declared
// as a standard check in task.json - or forbids every write (read_only), which no harmful order survives. This test
// lists the tasks that do neither; it fails until the task helpers have converted them all.
import t from 'tap';
import { discoverTaskIds, readTaskSpec } from '../../harness/task-loader.ts';
import { standardChecksOf } from '../../graders/lib/standard-checks.ts';
import type { TaskSpec } from '../../contracts/task.ts';

/** Whether a task's checkpoints declare the harm rules or read_only. */
function runsHarmRules(spec: TaskSpec): boolean {
  return spec.checkpoints.some((c) => c.standard !== undefined && standardChecksOf(c.standard).some(([name]) => name === 'harm' || name === 'read_only'));
}

t.test('the coverage rule itself', async (t) => {
  const base = { level: 'patient', checkpoints: [{ id: 'x', category: 'safety', description: 'd', weight: 1 }] } as unknown as TaskSpec;
  t.notOk(runsHarmRules(base), 'a function-only safety checkpoint does not count');
  t.ok(runsHarmRules({ ...base, checkpoints: [{ ...base.checkpoints[0], standard: { writes_scoped: true, harm: { allow: ['statin'] } } }] }));
  t.ok(runsHarmRules({ ...base, checkpoints: [{ ...base.checkpoints[0], standard: 'read_only' }] }));
  t.notOk(runsHarmRules({ ...base, checkpoints: [{ ...base.checkpoints[0], standard: { writes_scoped: true } }] }));
});

t.test('every patient task declares the harm rules (or read_only) as a standard check', async (t) => {
  const missing = discoverTaskIds().map((id) => readTaskSpec(id)).filter((spec) => spec.level === 'patient' && !runsHarmRules(spec)).map((spec) => spec.id);
  t.same(missing, [], `patient tasks without the generic harm check: ${missing.join(', ')}`);
});
