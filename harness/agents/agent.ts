// What every agent gets and returns. Agents act only through the session's FHIR base or the gym tools, over HTTP.
import type { WritePolicy } from '../../contracts/fhir-client.ts';
import type { GymClient, SessionInfo } from '../gym-client.ts';
import type { Task } from '../../contracts/task.ts';
import type { TokenUsage } from '../types.ts';

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
  /** A crash, an exhausted turn budget or an unreachable model. */
  error?: string;
}

export interface Agent {
  name: string;
  run(ctx: AgentContext): Promise<AgentOutcome>;
}
