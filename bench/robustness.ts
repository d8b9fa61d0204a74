// Robustness bench (issue 21 item 5): the score drop of the oracle and of a simple scripted agent under each
// perturbation (server/gym/perturbations.ts), against a clean run of the same variants (harness/perturb.ts, the code
// behind `ehr-gym run --perturb`). A sample of the repository's tasks on a seeded population, two variants each.
import type { Observation, Resource } from '@medplum/fhirtypes';
import { FhirClient } from '../contracts/fhir-client.ts';
import { perturbationKinds } from '../contracts/perturbations.ts';
import { oracleAgent } from '../harness/agents/oracle.ts';
import type { Agent, AgentContext, AgentOutcome } from '../harness/agents/agent.ts';
import { GymClient } from '../harness/gym-client.ts';
import { formatComparison, runPerturbationComparison } from '../harness/perturb.ts';
import { startBenchServer } from '../harness/server.ts';
import { discoverTaskIds, loadTask } from '../harness/task-loader.ts';
import { findVariants } from '../harness/variants.ts';

const PATIENTS = Number(process.env.BENCH_ROBUSTNESS_PATIENTS ?? 150);
const TASKS = Number(process.env.BENCH_ROBUSTNESS_TASKS ?? 12);
const VARIANTS = 2;
const SEED = 1;

/**
 * A simple scripted agent, the kind a first baseline is: it reads the patient and their results, medications and
 * problems with plain searches (no _sort, no status filter, no retries), takes the result with the latest effective
 * time per code, whatever its status, and answers with those values. It writes nothing.
 */
export const scriptedAgent: Agent = {
  name: 'scripted-reader',
  async run(ctx: AgentContext): Promise<AgentOutcome> {
    const fhir = new FhirClient(ctx.session.fhirBaseUrl);
    try {
      const patient = ctx.patient;
      const lines: string[] = [];
      if (patient) {
        await fhir.read('Patient', patient);
        const observations = await fhir.search<Observation>('Observation', { patient, _count: 200 });
        await fhir.search('MedicationRequest', { patient, status: 'active' });
        await fhir.search('Condition', { patient });
        const latest = new Map<string, Observation>();
        const when = (o: Observation) => Date.parse(o.effectiveDateTime ?? o.effectivePeriod?.start ?? o.issued ?? '') || 0;
        for (const o of observations) {
          const code = o.code?.coding?.[0]?.code;
          if (!code || o.valueQuantity?.value === undefined) continue;
          const held = latest.get(code);
          if (!held || when(o) > when(held)) latest.set(code, o);
        }
        for (const o of latest.values()) {
          const code = o.code!.coding![0];
          lines.push(`${code.display ?? code.code}: ${o.valueQuantity!.value} ${o.valueQuantity!.unit ?? ''}`.trim());
        }
      } else {
        await fhir.search<Resource>('Patient', { _count: 200 });
      }
      const answer = lines.length ? `Latest results: ${lines.slice(0, 20).join('; ')}.` : 'Reviewed the chart; no results found.';
      await ctx.gym.submit(ctx.session.id, answer);
      return { transcript: [{ finish: { answer } }] };
    } catch (err) {
      return { transcript: [], error: `scripted agent failed: ${(err as Error).message}` };
    }
  },
};

export async function benchRobustness(): Promise<string> {
  const server = await startBenchServer({ patients: PATIENTS, seed: SEED });
  try {
    const gym = new GymClient(server.url);
    // An even spread over the task ids (so over specialties), the first variants of each.
    const ids = discoverTaskIds();
    const step = Math.max(1, Math.floor(ids.length / TASKS));
    const tasks = await Promise.all(ids.filter((_, i) => i % step === 0).slice(0, TASKS).map((id) => loadTask(id)));
    const variants: Record<string, string[]> = {};
    for (const task of tasks) {
      const found = (await findVariants(task, gym)).slice(0, VARIANTS);
      if (found.length > 0) variants[task.spec.id] = found;
    }
    const used = tasks.filter((t) => variants[t.spec.id]);
    const episodes = Object.values(variants).reduce((n, v) => n + v.length, 0);
    const out = [
      '## Robustness: score drop under perturbations',
      '',
      `${used.length} tasks (every ${step}th of ${ids.length} by id, those with a variant on ${PATIENTS} patients of seed ${SEED}), ` +
      `${episodes} variants, one trial each; perturbation seed ${SEED}. Kinds: faults = 20% of FHIR requests answered 429/503 ` +
      '(Retry-After 0), latency = 50 ms added per request, paraphrase = a written paraphrase of the instruction (tasks without one keep ' +
      'theirs), noise = duplicates, unit variants, an entered-in-error result, distractor notes and shuffled unsorted searches. ' +
      'A drop is clean minus perturbed (a negative drop is a gain).',
      '',
      'Neither agent reads the instruction (the oracle runs the reference solution; the scripted agent a fixed read), so a ' +
      'paraphrase cannot move them: it is for model agents. The oracle does not retry, so each injected fault ends its solution; ' +
      'the scripted agent takes the latest result whatever its status, so an entered-in-error copy misleads it.',
      '',
    ];
    for (const agent of [oracleAgent, scriptedAgent]) {
      const comparison = await runPerturbationComparison({ tasks: used, agent, gym, trials: 1, concurrency: 4, variants }, [...perturbationKinds], SEED);
      out.push(`### ${agent.name}`, '', formatComparison(comparison), '');
      const failedUnderNoise = comparison.perturbed.find((p) => p.kind === 'noise')?.result.episodes.filter((e) => !e.pass
        && comparison.clean.episodes.some((c) => c.task === e.task && c.variant === e.variant && c.pass)) ?? [];
      if (failedUnderNoise.length > 0) out.push(`Passed clean, failed under noise: ${failedUnderNoise.map((e) => `${e.task} ${e.variant}`).join(', ')}.`, '');
    }
    return out.join('\n');
  } finally {
    await server.close();
  }
}
