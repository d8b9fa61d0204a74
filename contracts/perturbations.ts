// The robustness perturbations a gym session may be created with (issue 21 item 5): the request POST /gym/sessions
// takes as `perturbations`, what the session records, and the presets of `ehr-gym run --perturb`. Applied by the
// server (server/gym/perturbations.ts); the runner and the OpenEnv surface ask for them.
import { createHash } from 'node:crypto';

export const noiseKinds = ['duplicates', 'unit-variants', 'entered-in-error', 'distractor-notes', 'shuffle'] as const;
export type NoiseKind = (typeof noiseKinds)[number];

/** The perturbation kinds of `ehr-gym run --perturb`, each a preset of the request below. */
export const perturbationKinds = ['faults', 'latency', 'paraphrase', 'noise'] as const;
export type PerturbationKind = (typeof perturbationKinds)[number];

/** What POST /gym/sessions takes as `perturbations`. */
export interface PerturbationRequest {
  /** Draws every perturbation (default 0). */
  seed?: number;
  /** Share of FHIR requests answered 429 or 503 (in [0, 1)), with Retry-After seconds (default 1). */
  faults?: { rate: number; retryAfter?: number };
  /** Milliseconds added to every FHIR request of the session. */
  latencyMs?: number;
  /** Use one of the task's paraphrases as the instruction. */
  paraphrase?: boolean;
  /** Chart noise: every kind (true) or these. */
  noise?: boolean | NoiseKind[];
}

/** What the session records: the request made definite, and what was applied. */
export interface Perturbations {
  seed: number;
  faults?: { rate: number; retryAfter: number };
  latencyMs?: number;
  /** The paraphrase used (its index in task.json), or null when the task has none (the instruction is unchanged). */
  paraphrase?: { index: number | null };
  /** The noise kinds and the ids of what each added to the chart. */
  noise?: { kinds: NoiseKind[]; added: Partial<Record<NoiseKind, string[]>> };
}

/** The JSON Schema of the request (the gym's route schema). */
export const perturbationSchema = {
  type: 'object',
  properties: {
    seed: { type: 'integer', minimum: 0 },
    faults: {
      type: 'object', required: ['rate'], additionalProperties: false,
      properties: { rate: { type: 'number', minimum: 0, exclusiveMaximum: 1 }, retryAfter: { type: 'integer', minimum: 0, maximum: 3600 } },
    },
    latencyMs: { type: 'integer', minimum: 0, maximum: 60_000 },
    paraphrase: { type: 'boolean' },
    noise: { anyOf: [{ type: 'boolean' }, { type: 'array', items: { type: 'string', enum: [...noiseKinds] }, uniqueItems: true }] },
  },
  additionalProperties: false,
} as const;

/** The request of each `--perturb` kind (the rates are the bench's: bench/RESULTS.md). */
export function perturbationPreset(kinds: PerturbationKind[], seed: number): PerturbationRequest {
  return {
    seed,
    ...(kinds.includes('faults') ? { faults: { rate: 0.2, retryAfter: 0 } } : {}),
    ...(kinds.includes('latency') ? { latencyMs: 50 } : {}),
    ...(kinds.includes('paraphrase') ? { paraphrase: true } : {}),
    ...(kinds.includes('noise') ? { noise: true } : {}),
  };
}

/** A fraction in [0, 1) from the seed and what is drawn. */
export function drawFraction(seed: number, what: string): number {
  return createHash('sha256').update(`${seed}:${what}`).digest().readUIntBE(0, 6) / 2 ** 48;
}

/** The request made definite; paraphrase and noise are applied later (they need the task and the chart). */
export function definite(request: PerturbationRequest): Perturbations {
  const kinds = request.noise === true ? [...noiseKinds] : Array.isArray(request.noise) ? request.noise : [];
  return {
    seed: request.seed ?? 0,
    ...(request.faults ? { faults: { rate: request.faults.rate, retryAfter: request.faults.retryAfter ?? 1 } } : {}),
    ...(request.latencyMs ? { latencyMs: request.latencyMs } : {}),
    ...(request.paraphrase ? { paraphrase: { index: null } } : {}),
    ...(kinds.length > 0 ? { noise: { kinds, added: {} } } : {}),
  };
}

/**
 * An episode's perturbation seed from a run's seed and the episode (task, variant, trial): deterministic, but not the
 * same fault pattern and paraphrase in every session of a run.
 */
export function episodeSeed(seed: number, ...episode: (string | number)[]): number {
  return createHash('sha256').update(`${seed}:${episode.join(':')}`).digest().readUInt32BE(0) % 2 ** 31;
}
