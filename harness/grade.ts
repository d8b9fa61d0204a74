// Grading an episode: one check per checkpoint over the session's final state, changes, audit log and submission.
// A checkpoint either has a function in grader.ts or declares `standard` checks that the library runs
// (graders/lib/standard-checks.ts). A check that throws fails its checkpoint loudly (evidence "grader error: ..."),
// never silently.
import { runStandardChecks } from '../graders/lib/standard-checks.ts';
import type { Check, Checkpoint, CheckResult, GraderContext, Task, Verdict } from '../contracts/task.ts';

function checkOf(task: Task, checkpoint: Checkpoint): Check {
  const own = task.grader.checks[checkpoint.id] as Check | undefined;
  if (checkpoint.standard !== undefined) {
    if (own) throw new Error(`checkpoint '${checkpoint.id}' has both standard checks and a check in grader.ts`);
    const spec = checkpoint.standard;
    return (ctx) => runStandardChecks(spec, ctx);
  }
  if (!own) throw new Error(`no check for checkpoint '${checkpoint.id}'`);
  return own;
}

export async function grade(task: Task, ctx: GraderContext): Promise<Verdict[]> {
  const verdicts: Verdict[] = [];
  for (const checkpoint of task.spec.checkpoints) {
    let result: CheckResult;
    try {
      result = await checkOf(task, checkpoint)(ctx);
      if (!result || typeof result.pass !== 'boolean') throw new Error('the check returned no {pass, evidence}');
    } catch (err) {
      result = { pass: false, evidence: [`grader error: ${(err as Error).stack ?? String(err)}`], failure: 'grader_error' };
    }
    const score = Math.min(1, Math.max(0, result.score ?? (result.pass ? 1 : 0)));
    verdicts.push({
      id: checkpoint.id,
      category: checkpoint.category,
      weight: checkpoint.weight,
      critical: checkpoint.critical ?? false,
      pass: result.pass,
      score,
      evidence: Array.isArray(result.evidence) ? result.evidence : [result.evidence],
      ...(result.failure ? { failure: result.failure } : {}),
    });
  }
  return verdicts;
}
