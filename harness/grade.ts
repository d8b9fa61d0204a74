// Grading an episode: one check per checkpoint over the session's final state, changes, audit log and submission.
// A check that throws fails its checkpoint loudly (evidence "grader error: ..."), never silently.
import type { CheckResult, GraderContext, Task, Verdict } from './types.ts';

export async function grade(task: Task, ctx: GraderContext): Promise<Verdict[]> {
  const verdicts: Verdict[] = [];
  for (const checkpoint of task.spec.checkpoints) {
    const check = task.grader.checks[checkpoint.id];
    let result: CheckResult;
    try {
      if (!check) throw new Error(`no check for checkpoint '${checkpoint.id}'`);
      result = await check(ctx);
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
