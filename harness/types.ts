// What one episode produces for scoring and reports: the verdicts (contracts/task.ts) plus the runner's own findings.
import type { AuditEntry, ResourceChange } from '../contracts/gym-api.ts';
import type { Verdict } from '../contracts/task.ts';

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

export interface EpisodeResult {
  task: string;
  specialty: string;
  workflows: string[];
  variant: string;
  trial: number;
  agent: string;
  session: string;
  pass: boolean;
  /** Weighted checkpoint score in [0, 1]. */
  score: number;
  verdicts: Verdict[];
  answer: unknown;
  toolCalls: number;
  writes: number;
  tokens?: TokenUsage;
  /** Agent error (a crash or an exhausted turn budget), if any. */
  error?: string;
  /** Searches by a code that returned nothing while the chart held the concept under another code (harness/failures.ts). */
  codeLookupMisses: CodeLookupMiss[];
  /** Why the code-lookup analysis could not run, if it could not. */
  codeLookupCheckError?: string;
  log: AuditEntry[];
  changes: ResourceChange[];
  transcript: unknown[];
}
