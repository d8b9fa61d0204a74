// What every agent gets and returns. Agents act only through the session's FHIR base or the gym tools, over HTTP.
import type { WritePolicy } from '../../contracts/fhir-client.ts';
import type { GymClient, SessionInfo } from '../gym-client.ts';
import type { Task } from '../../contracts/task.ts';
import type { ModelSettings, TokenUsage, TurnRecord } from '../types.ts';

export interface AgentContext {
  task: Task;
  session: SessionInfo;
  gym: GymClient;
  /** The variant's patient id ('' for population tasks). */
  patient: string;
  /** The instruction with the patient filled in. */
  instruction: string;
  /** Oracle only: which of the solution's writes reach the server (the mutation check). */
  writePolicy?: WritePolicy;
}

export interface AgentOutcome {
  transcript: unknown[];
  tokens?: TokenUsage;
  /** The agent's own failure: a crash, an exhausted budget, a truncated final reply. Graded as it stands. */
  error?: string;
  /**
   * A failure outside the agent: the model API still failing after its retries, a timeout, a gym server error. The
   * episode is recorded as `infra_error` and left out of pass@1 and pass^k.
   */
  infraError?: string;
  /** The final reply ended at the output token limit and was not submitted. */
  truncatedFinalReply?: boolean;
  turns?: TurnRecord[];
  toolsOffered?: unknown[];
  settings?: ModelSettings;
}

/**
 * An agent: `run` acts in the session over HTTP (FHIR base `ctx.session.fhirBaseUrl`, or the gym tools through
 * `ctx.gym`) and submits an answer (`ctx.gym.submit`, or the `finish` tool). `ehr-gym run --agent ./my-agent.ts` loads
 * a module whose default export (or `agent` export) is one, or a function of the run's ModelSettings returning one;
 * see harness/agents/example-agent.ts.
 */
export interface Agent {
  name: string;
  run(ctx: AgentContext): Promise<AgentOutcome>;
}
