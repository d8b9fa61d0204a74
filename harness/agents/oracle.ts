// The oracle agent: the task's reference solution (solution.ts), run with a FHIR client on the session's base.
import { FhirClient, type WriteCall } from '../../contracts/fhir-client.ts';
import type { Agent, AgentContext, AgentOutcome } from './agent.ts';

export interface OracleOutcome extends AgentOutcome {
  /** Every write the solution requested, in order (skipped ones marked). */
  writes: (WriteCall & { skipped: boolean })[];
}

export async function runOracle(ctx: AgentContext): Promise<OracleOutcome> {
  const fhir = new FhirClient(ctx.session.fhirBaseUrl, ctx.writePolicy ? { writePolicy: ctx.writePolicy } : {});
  const transcript: unknown[] = [];
  try {
    await ctx.task.solution({
      fhir,
      patient: ctx.patient,
      now: ctx.session.now,
      task: ctx.task.spec,
      finish: async (answer, files) => {
        transcript.push({ finish: { answer, ...(files ? { files } : {}) } });
        await ctx.gym.submit(ctx.session.id, answer, files);
      },
    });
    return { transcript: [{ writes: fhir.writes }, ...transcript], writes: fhir.writes };
  } catch (err) {
    return { transcript: [{ writes: fhir.writes }, ...transcript], writes: fhir.writes, error: `solution failed: ${(err as Error).message}` };
  }
}

export const oracleAgent: Agent = { name: 'oracle', run: runOracle };
