// Episodes in the formats training and analysis tools read (`ehr-gym export`):
// - ATIF, the Agent Trajectory Interchange Format of the Harbor project (RFC 0001, version ATIF-v1.4): one JSON
//   trajectory per episode, steps with the message, tool calls, observation results and per-step token metrics, and
//   final metrics; the gym's own record (reward, verdicts, task, provenance) in the `extra` objects the format keeps
//   for that. Schema written from the RFC: schemas/atif-v1.4.schema.json.
// - JSONL rows in the shape of verifiers' results.jsonl: prompt and completion as chat messages (OpenAI shape, whatever
//   API the agent used), reward = the weighted checkpoint score, pass, a reward per checkpoint, metadata. Schema:
//   schemas/results-row.schema.json.
// Both read the episode through the report's trajectory (harness/report/trajectory.ts), so a transcript is read one way.
import { costOf } from '../episode.ts';
import { episodeId } from '../report/data.ts';
import { agentRequests, buildTrajectory, requestLine, type TrajectoryStep } from '../report/trajectory.ts';
import type { EpisodeResult, Price } from '../types.ts';

export const ATIF_SCHEMA_VERSION = 'ATIF-v1.4';
export const exportFormats = ['atif', 'jsonl'] as const;
export type ExportFormat = (typeof exportFormats)[number];

type Json = Record<string, unknown>;

/** ATIF wants tool arguments as an object: anything else the model sent is kept under `raw`. */
const argumentsObject = (args: unknown): Json => (args && typeof args === 'object' && !Array.isArray(args) ? (args as Json) : { raw: args ?? null });

/** The episode's outcome and grade, as both formats carry them. */
function grade(e: EpisodeResult) {
  return {
    reward: e.score, pass: e.pass, outcome: e.outcome,
    checkpoint_rewards: Object.fromEntries(e.verdicts.map((v) => [v.id, v.score])),
  };
}

function metadata(e: EpisodeResult): Json {
  return {
    id: episodeId(e), task: e.task, variant: e.variant, trial: e.trial, specialty: e.specialty, workflows: e.workflows, agent: e.agent,
    ...(e.settings ? { model: e.settings.model, provider: e.settings.provider } : {}), session: e.session, outcome: e.outcome,
    ...(e.infraError ? { infra_error: e.infraError } : {}), ...(e.error ? { agent_error: e.error } : {}),
    failed_checkpoints: e.verdicts.filter((v) => !v.pass).map((v) => ({ id: v.id, category: v.category, critical: v.critical, ...(v.failure ? { failure: v.failure } : {}) })),
    tool_calls: e.toolCalls, writes: e.writes, ...(e.tokens ? { tokens: e.tokens } : {}), ...(e.cost !== undefined ? { cost_usd: e.cost } : {}),
    started_at: e.startedAt, ended_at: e.endedAt, duration_ms: e.durationMs,
    ...(e.provenance ? { task_version: e.provenance.taskVersion, grader_version: e.provenance.graderVersion } : {}),
  };
}

function atifStep(step: TrajectoryStep, e: EpisodeResult, requests: Map<number, ReturnType<typeof agentRequests>[number]>, price?: Price): Json {
  const out: Json = { step_id: step.n, source: step.source, message: step.text };
  if (step.source !== 'agent') return out;
  if (step.turn) out.timestamp = step.turn.startedAt;
  if (e.settings?.model) out.model_name = e.settings.model;
  if (step.toolCalls.length > 0) {
    out.tool_calls = step.toolCalls.map((c) => ({ tool_call_id: c.id, function_name: c.name, arguments: argumentsObject(c.arguments) }));
  } else if (step.requests.length > 0) {
    // An agent without a conversation (the oracle, a custom agent): the step is one HTTP request, as a call of `http`.
    out.tool_calls = step.requests.map((seq) => {
      const r = requests.get(seq)!;
      return { tool_call_id: `request-${seq}`, function_name: 'http', arguments: { method: r.method, path: r.path, query: r.query, ...(r.requestBody !== undefined ? { body: r.requestBody } : {}) } };
    });
  }
  const results = step.toolCalls.length > 0 || step.requests.length === 0
    ? step.results.map((r) => ({ ...(r.callId ? { source_call_id: r.callId } : {}), content: r.text }))
    : step.requests.map((seq) => ({ source_call_id: `request-${seq}`, content: step.results[0]?.text ?? '' }));
  if (results.length > 0) out.observation = { results };
  if (step.turn) {
    const usage = step.turn.usage;
    out.metrics = {
      prompt_tokens: usage.prompt, completion_tokens: usage.completion,
      ...(price ? { cost_usd: costOf(usage, price) } : {}),
      extra: { latency_ms: step.turn.latencyMs, finish_reason: step.turn.finishReason, truncated: step.turn.truncated, retries: step.turn.retries.length },
    };
  }
  const seqs = [...step.requests, ...step.toolCalls.flatMap((c) => c.seqs)];
  if (seqs.length > 0) out.extra = { audit_seqs: seqs, requests: seqs.map((s) => requestLine(requests.get(s)!)) };
  return out;
}

export interface ExportOptions {
  /** The run's --price (summary.json) when the episode's settings lack it: each step's cost. */
  price?: Price;
  /**
   * The task's instruction for the variant, for an agent whose transcript holds no conversation (the oracle, a custom
   * agent): it becomes the first, user step.
   */
  instruction?: string;
}

/** The episode's steps; without a conversation, the instruction (when known) first, as the user's step. */
function stepsOf(e: EpisodeResult, options: ExportOptions): { conversation: boolean; steps: TrajectoryStep[] } {
  const trajectory = buildTrajectory(e);
  if (trajectory.conversation || options.instruction === undefined) return trajectory;
  const user: TrajectoryStep = { n: 1, source: 'user', text: options.instruction, toolCalls: [], results: [], requests: [] };
  return { conversation: false, steps: [user, ...trajectory.steps.map((s) => ({ ...s, n: s.n + 1 }))] };
}

/** One episode as an ATIF trajectory. */
export function toAtif(e: EpisodeResult, options: ExportOptions = {}): Json {
  const price = e.settings?.price ?? options.price;
  const trajectory = stepsOf(e, options);
  const requests = new Map(agentRequests(e.log ?? []).map((r) => [r.seq, r]));
  const steps = trajectory.steps.map((s) => atifStep(s, e, requests, price));
  return {
    schema_version: ATIF_SCHEMA_VERSION,
    session_id: e.session || episodeId(e),
    agent: {
      name: e.agent, version: e.provenance?.server.version ?? 'unknown',
      ...(e.settings?.model ? { model_name: e.settings.model } : {}),
      extra: { harness: 'ehr-gym', ...(e.settings ? { settings: e.settings } : {}) },
    },
    steps,
    ...(trajectory.conversation ? {} : { notes: 'No model conversation was recorded for this agent: each agent step is one HTTP request it made to the FHIR server (function_name "http"), from the session\'s audit log.' }),
    final_metrics: {
      ...(e.tokens ? { total_prompt_tokens: e.tokens.prompt, total_completion_tokens: e.tokens.completion } : {}),
      ...(e.cost !== undefined ? { total_cost_usd: e.cost } : {}),
      total_steps: steps.length,
      extra: { ...grade(e), tool_calls: e.toolCalls, writes: e.writes, duration_ms: e.durationMs, retries: e.retries ?? 0 },
    },
    extra: { ...metadata(e), answer: e.answer ?? null, verdicts: e.verdicts, ...(e.provenance ? { provenance: e.provenance } : {}) },
  };
}

/** The trajectory as OpenAI-shaped chat messages (tool arguments as JSON text, as that API sends them). */
function chatMessages(steps: TrajectoryStep[]): Json[] {
  const out: Json[] = [];
  for (const s of steps) {
    if (s.source !== 'agent') {
      out.push({ role: s.source, content: s.text });
      continue;
    }
    if (s.toolCalls.length === 0 && s.requests.length > 0) continue; // a bare request, not a message
    out.push({
      role: 'assistant', content: s.text || null,
      ...(s.toolCalls.length ? { tool_calls: s.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments) } })) } : {}),
    });
    for (const r of s.results) out.push({ role: 'tool', tool_call_id: r.callId ?? '', content: r.text });
  }
  return out;
}

/** One episode as a results.jsonl row. */
export function toJsonlRow(e: EpisodeResult, options: ExportOptions = {}): Json {
  const messages = chatMessages(stepsOf(e, options).steps);
  // The prompt is what the model was given before its first reply; the completion everything after.
  const first = messages.findIndex((m) => m.role === 'assistant');
  const cutAt = first === -1 ? messages.length : first;
  return {
    prompt: messages.slice(0, cutAt), completion: messages.slice(cutAt), answer: e.answer ?? null,
    ...grade(e), metadata: metadata(e),
  };
}
