// The adversarial case suites of a task folder: `cases/correct/*.ts` are guideline-concordant agents that must pass
// every checkpoint on every variant; `cases/wrong/*.ts` are plausible wrong or harmful agents that must fail at least
// one checkpoint (of `catches`, when given) on every variant (or some, with `mustFail: 'some'`). Each case is a plain
// HTTP client (contracts/case-http.ts) run as an agent by `ehr-gym task check`.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Agent } from '../agents/agent.ts';
import { CaseHttp, type CaseModule } from '../../contracts/case-http.ts';

export type CaseKind = 'correct' | 'wrong';

export interface TaskCase {
  kind: CaseKind;
  /** File name without `.ts`. */
  name: string;
  module: CaseModule;
}

export const CASE_KINDS: CaseKind[] = ['correct', 'wrong'];

/** The case files of a task folder, sorted by name; a case that does not load is reported, not skipped. */
export async function loadCases(taskDir: string, problems: string[]): Promise<TaskCase[]> {
  const cases: TaskCase[] = [];
  for (const kind of CASE_KINDS) {
    const dir = join(taskDir, 'cases', kind);
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts')).sort()) {
      try {
        const module = (await import(pathToFileURL(join(dir, file)).href)) as CaseModule;
        if (typeof module.default !== 'function') problems.push(`cases/${kind}/${file} must export default async function (ctx)`);
        else cases.push({ kind, name: file.replace(/\.ts$/, ''), module });
      } catch (err) {
        problems.push(`cases/${kind}/${file} failed to load: ${(err as Error).message}`);
      }
    }
  }
  return cases;
}

/** A case module as an agent: it gets the session's FHIR base and a submit, nothing else. */
export function caseAgent(taskCase: TaskCase): Agent {
  return {
    name: `case:${taskCase.kind}/${taskCase.name}`,
    run: async (ctx) => {
      const transcript: unknown[] = [];
      try {
        await taskCase.module.default({
          base: ctx.session.fhirBaseUrl,
          patient: ctx.patient,
          now: ctx.session.now,
          instruction: ctx.instruction,
          http: new CaseHttp(ctx.session.fhirBaseUrl),
          submit: async (answer, files) => {
            transcript.push({ finish: { answer, ...(files ? { files } : {}) } });
            await ctx.gym.submit(ctx.session.id, answer, files);
          },
        });
        return { transcript };
      } catch (err) {
        return { transcript, error: `case failed: ${(err as Error).message}` };
      }
    },
  };
}
