// What one episode produces for scoring and reports: the verdicts (contracts/task.ts) plus the runner's own findings.
import type { AuditEntry, ResourceChange } from '../contracts/gym-api.ts';
import type { Verdict } from '../contracts/task.ts';
import type { Perturbations } from '../contracts/perturbations.ts';

/** How an empty search by code came about: no terminology call before it, or codes looked up and still missed. */
export type CodeLookupKind = 'code_guessed' | 'code_looked_up_but_missed';

/** A search by code that found nothing although the chart holds the concept (or the code exists in no system). */
export interface CodeLookupMiss {
  kind: CodeLookupKind;
  /** Audit-log seq of the search. */
  seq: number;
  /** e.g. `Observation?code=K`. */
  search: string;
  /** The resource that holds the concept under another code (absent when the code itself is unknown). */
  holder?: string;
  /** Seqs of the successful terminology calls before the search. */
  lookups: number[];
  message: string;
}

export interface TokenUsage {
  prompt: number;
  completion: number;
}

/** One retried model request: why, and how long the agent waited before the next attempt. */
export interface RetryRecord {
  /** 1 for the first retry. */
  attempt: number;
  /** HTTP status of the failed attempt (absent for a network error or a timeout). */
  status?: number;
  error: string;
  /** The wait before the next attempt: the server's Retry-After when it sent one, else exponential backoff with jitter. */
  waitMs: number;
  /** What Retry-After (or retry-after-ms) asked for, when present. */
  retryAfterMs?: number;
}

/** One model call of an episode. */
export interface TurnRecord {
  turn: number;
  startedAt: string;
  /** From the first attempt to the answer, retry waits included. */
  latencyMs: number;
  usage: TokenUsage;
  /** As the API said it: finish_reason (OpenAI) or stop_reason (Anthropic). */
  finishReason: string;
  /** The reply was cut by the output token limit (`length` / `max_tokens`). */
  truncated: boolean;
  toolCalls: number;
  retries: RetryRecord[];
}

/**
 * How an episode ended. `infra_error`: the model API failed after its retries, timed out, or the gym server erred; such
 * episodes say nothing about the agent and are left out of pass@1 and pass^k (counted apart).
 */
export type EpisodeOutcome = 'passed' | 'failed' | 'infra_error';

/** The model settings an episode ran with (flags of `ehr-gym run`). */
export interface ModelSettings {
  provider: string;
  model: string;
  baseUrl?: string;
  temperature?: number;
  maxTokens?: number;
  maxTurns: number;
  maxEpisodeTokens?: number;
  episodeTimeLimitMs?: number;
  /** Characters of one tool result the model sees; longer results are cut with a note. */
  toolOutputLimit: number;
  strict: boolean;
  retries: number;
  requestTimeoutMs: number;
  /** USD per million input and output tokens. */
  price?: Price;
}

export interface Price {
  inputPerMillion: number;
  outputPerMillion: number;
}

/** Where an episode ran: the server, its population, and the versions of the task and its grader. */
export interface Provenance {
  server: { url: string; software?: string; version?: string; commit?: string };
  population?: { seed: number; patients: number; resources?: number };
  taskVersion: string;
  graderVersion: string;
}

export interface EpisodeResult {
  task: string;
  specialty: string;
  workflows: string[];
  variant: string;
  trial: number;
  agent: string;
  session: string;
  pass: boolean;
  /** passed / failed, or infra_error (not the agent's doing: excluded from pass@1 and pass^k). */
  outcome: EpisodeOutcome;
  /** What failed outside the agent, when outcome is infra_error. */
  infraError?: string;
  /** The final reply was cut by the token limit: it was not submitted as the answer. */
  truncatedFinalReply?: boolean;
  startedAt: string;
  endedAt: string;
  durationMs: number;
  /** Weighted checkpoint score in [0, 1]. */
  score: number;
  verdicts: Verdict[];
  answer: unknown;
  toolCalls: number;
  writes: number;
  tokens?: TokenUsage;
  /** USD, from the token usage and --price. */
  cost?: number;
  /** Model agents: every model call, its latency, usage, finish reason and retries. */
  turns?: TurnRecord[];
  /** Retried model requests over the episode. */
  retries?: number;
  /** The exact tool definitions the model was offered. */
  toolsOffered?: unknown[];
  settings?: ModelSettings;
  provenance?: Provenance;
  /** The session's perturbations (server/gym/perturbations.ts); absent for a clean episode. */
  perturbations?: Perturbations;
  /** Agent error (a crash, an exhausted budget, a truncated final reply), if any. */
  error?: string;
  /** Searches by a code that returned nothing while the chart held the concept under another code (harness/failures.ts). */
  codeLookupMisses: CodeLookupMiss[];
  /** Why the code-lookup analysis could not run, if it could not. */
  codeLookupCheckError?: string;
  log: AuditEntry[];
  changes: ResourceChange[];
  transcript: unknown[];
}
