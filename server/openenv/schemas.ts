// The OpenEnv surface's JSON Schemas (GET /openenv/schema) and the checks made with them. OpenEnv (meta-pytorch/OpenEnv,
// rfcs/002-env-spec.md) serves its environments from FastAPI with pydantic models, so a body that does not fit answers
// 422 with FastAPI's `{"detail": [{type, loc, msg}]}`; we answer in that shape on this surface because its clients
// speak OpenEnv, not FHIR (as server/gym/mcp.ts answers JSON-RPC errors to MCP clients).
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { agentTools } from '../tools/index.ts';
import { splitFilters, type SplitFilter } from '../../contracts/splits.ts';
import { perturbationSchema, type PerturbationRequest } from '../../contracts/perturbations.ts';

const toolNames = agentTools.map((t) => t.definition.name);

/** POST /reset. OpenEnv's ResetRequest (seed, episode_id) allows extra fields; ours are task, variant, split, reward_mode. */
export const resetSchema = {
  type: 'object',
  properties: {
    seed: { type: 'integer', minimum: 0, description: 'Samples the task and variant when they are not given (the same seed, the same choice on the same server)' },
    episode_id: { type: 'string', minLength: 1, maxLength: 255, description: 'Your id for the episode (default: the server chooses an unguessable one). Reusing a live id replaces that episode' },
    task: { type: 'string', description: 'A task id from GET /gym/tasks; sampled from the seed when absent' },
    variant: { type: 'string', description: 'A variant of the task (a patient id, or `population`); sampled from the seed when absent' },
    split: { type: 'string', enum: [...splitFilters], description: 'Sample only variants of this split: train or test (patients partitioned by a hash of their id; held-out tasks are test), or held-out (the held-out tasks alone). A given variant must be of it' },
    perturbations: { ...perturbationSchema, description: 'Robustness perturbations of the episode\'s session, as POST /gym/sessions takes them (API faults, latency, paraphrase, chart noise); shown in the state' },
    reward_mode: { type: 'string', enum: ['final', 'shaped'], description: 'final (default): reward only at the end; shaped: also each checkpoint\'s weight when it first becomes satisfied' },
  },
  // A variant is of a task.
  dependencies: { variant: ['task'] },
  additionalProperties: true,
} as const;

const metadata = { type: 'object', description: 'Free metadata of the action (ignored by the environment)' };

/** One tool call (OpenEnv's MCP CallToolAction shape; `type` defaults to call_tool), or the final answer. */
export const callToolSchema = {
  title: 'CallToolAction',
  type: 'object',
  properties: {
    type: { const: 'call_tool' },
    tool_name: { type: 'string', description: `One of: ${toolNames.join(', ')} (an unknown name is answered in the observation's error, not refused)` },
    arguments: { type: 'object', description: 'The tool\'s arguments (its JSON Schema: GET /gym/tools or MCP tools/list)' },
    metadata,
  },
  required: ['tool_name'],
  additionalProperties: false,
} as const;

export const finalAnswerSchema = {
  title: 'FinalAnswerAction',
  type: 'object',
  properties: {
    type: { const: 'final_answer' },
    answer: { type: 'string', description: 'The final answer; the same as calling the `finish` tool: it ends the episode' },
    metadata,
  },
  required: ['type', 'answer'],
  additionalProperties: false,
} as const;

export const actionSchema = { oneOf: [callToolSchema, finalAnswerSchema] } as const;

/** POST /step: OpenEnv's StepRequest (action, timeout_s, request_id) and the episode it acts in. */
export const stepSchema = {
  type: 'object',
  properties: {
    action: {},
    episode_id: { type: 'string', minLength: 1, maxLength: 255, description: 'The episode from POST /reset (required over HTTP; a WebSocket holds its own)' },
    timeout_s: { type: 'number', exclusiveMinimum: 0, description: 'Accepted for OpenEnv clients; not enforced (the server\'s own request budget applies)' },
    request_id: { type: 'string', maxLength: 255 },
  },
  required: ['action'],
  additionalProperties: true,
} as const;

const nullable = (schema: Record<string, unknown>) => ({ anyOf: [schema, { type: 'null' }] });

const checkpointSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' }, category: { type: 'string' }, weight: { type: 'number' }, critical: { type: 'boolean' },
    pass: { type: 'boolean' }, score: { type: 'number', minimum: 0, maximum: 1 },
  },
  required: ['id', 'category', 'weight', 'critical', 'pass', 'score'],
};

/** What `observation` holds in every answer of reset and step (OpenEnv drops observation metadata, so all is here). */
export const observationSchema = {
  title: 'EhrGymObservation',
  type: 'object',
  properties: {
    episode_id: { type: 'string' },
    step_count: { type: 'integer', minimum: 0 },
    task: { type: 'string' },
    variant: nullable({ type: 'string' }),
    instruction: nullable({ type: 'string', description: 'The task for the agent (reset only)' }),
    now: { type: 'string', description: 'The episode\'s clock at its start (FHIR instant)' },
    tools: nullable({ type: 'array', description: 'The tools as MCP tools/list entries (reset only)' }),
    tool_name: nullable({ type: 'string' }),
    result: nullable({ type: 'string', description: 'The tool\'s result text, as MCP and OpenAI clients get it' }),
    is_error: { type: 'boolean', description: 'The tool refused or failed (its message is the result)' },
    error: nullable({
      type: 'object', description: 'tool_not_found: no such tool; infrastructure: the server failed (no reward comes of it)',
      properties: { error_type: { enum: ['tool_not_found', 'infrastructure'] }, message: { type: 'string' } },
    }),
    pass: nullable({ type: 'boolean', description: 'Every checkpoint passed (set when done)' }),
    score: nullable({ type: 'number', description: 'Weighted checkpoint score in [0, 1] (set when done): the final reward' }),
    checkpoints: nullable({ type: 'array', items: checkpointSchema, description: 'Per-checkpoint verdicts (set when done)' }),
    grader_version: nullable({ type: 'string' }),
    shaped_reward: nullable({ type: 'number', description: 'reward_mode shaped: normalized weight of the checkpoints first satisfied at this step' }),
  },
  required: ['episode_id', 'step_count', 'task', 'is_error', 'pass', 'score', 'checkpoints', 'shaped_reward'],
} as const;

export const stateSchema = {
  title: 'EhrGymState',
  type: 'object',
  properties: {
    episode_id: nullable({ type: 'string' }),
    step_count: { type: 'integer', minimum: 0 },
    session_id: { type: 'string', description: 'The gym session behind the episode (its log, changes and grade: /gym/sessions/{id}/...)' },
    task: { type: 'string' }, variant: nullable({ type: 'string' }), seed: { type: 'integer' }, split: nullable({ type: 'string' }),
    reward_mode: { enum: ['final', 'shaped'] },
    done: { type: 'boolean' },
    reward: nullable({ type: 'number', description: 'The final reward, once graded' }),
    pass: nullable({ type: 'boolean' }),
    grade_error: nullable({ type: 'string', description: 'Grading failed (an infrastructure error: no reward)' }),
    perturbations: nullable({ type: 'object', description: 'The session\'s perturbations as asked and applied (seed, faults, latencyMs, paraphrase index, noise kinds and what they added)' }),
  },
  required: ['episode_id', 'step_count'],
} as const;

export interface ValidationDetail {
  type: string;
  loc: (string | number)[];
  msg: string;
}

/** A refusal in FastAPI's shape: 422 and `detail` (a list of located problems, or a message). */
export class OpenEnvError extends Error {
  constructor(readonly status: number, readonly detail: string | ValidationDetail[], readonly headers: Record<string, string> = {}) {
    super(typeof detail === 'string' ? detail : detail.map((d) => `${d.loc.join('.')}: ${d.msg}`).join('; '));
  }
}

const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: false });
const validators = {
  reset: ajv.compile(resetSchema),
  step: ajv.compile(stepSchema),
  call_tool: ajv.compile(callToolSchema),
  final_answer: ajv.compile(finalAnswerSchema),
};

export type Action =
  | { type?: 'call_tool'; tool_name: string; arguments?: Record<string, unknown>; metadata?: object }
  | { type: 'final_answer'; answer: string; metadata?: object };

export interface ResetParams {
  seed?: number;
  episode_id?: string;
  task?: string;
  variant?: string;
  split?: SplitFilter;
  perturbations?: PerturbationRequest;
  reward_mode?: 'final' | 'shaped';
}

export interface StepParams {
  action: unknown;
  episode_id?: string;
  timeout_s?: number;
  request_id?: string;
}

function check<T>(validate: ValidateFunction, value: unknown, loc: (string | number)[]): T {
  if (validate(value)) return value as T;
  throw new OpenEnvError(422, (validate.errors ?? []).map((e) => detailOf(e, loc)));
}

function detailOf(e: ErrorObject, loc: (string | number)[]): ValidationDetail {
  const missing = (e.params as { missingProperty?: string }).missingProperty;
  const extra = (e.params as { additionalProperty?: string }).additionalProperty;
  const path = e.instancePath.split('/').filter(Boolean);
  return { type: e.keyword, loc: [...loc, ...path, ...(missing ? [missing] : []), ...(extra ? [extra] : [])], msg: e.message ?? 'is invalid' };
}

/** A reset body (absent: every default). `loc` is where it sits: ['body'] over HTTP, ['data'] in a WebSocket message. */
export function checkReset(value: unknown, loc: string[]): ResetParams {
  return check<ResetParams>(validators.reset, value ?? {}, loc);
}

export function checkStep(value: unknown): StepParams {
  return check<StepParams>(validators.step, value, ['body']);
}

/**
 * An action, checked against the branch its `type` names (call_tool when absent), so a refusal names that branch's
 * problems rather than every branch's of the oneOf.
 */
export function checkAction(value: unknown, loc: (string | number)[]): Action {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new OpenEnvError(422, [{ type: 'type', loc, msg: 'must be an object (an action: call_tool or final_answer)' }]);
  }
  const type = (value as { type?: unknown }).type ?? 'call_tool';
  if (type !== 'call_tool' && type !== 'final_answer') {
    throw new OpenEnvError(422, [{ type: 'enum', loc: [...loc, 'type'], msg: 'must be call_tool or final_answer' }]);
  }
  return check<Action>(validators[type], value, loc);
}
