// One episode as a sequence of steps, whatever recorded it: an OpenAI Chat Completions transcript, an Anthropic Messages
// transcript, or (the oracle, custom agents) no conversation at all, when the steps are the audited requests. Shared by
// the report's trajectory view and the ATIF and JSONL exports, so both read a transcript the same way.
// Each tool call is tied to the audited requests it made: audit entries carry the tool's name, and a tool's requests
// follow its calls in order, so the n-th entries of a tool go to the n-th calls of that tool (calls that made no
// request, such as `finish` or a refused call, get none; a call that paged through results gets several).
import type { AuditEntry } from '../../contracts/gym-api.ts';
import type { EpisodeResult, TokenUsage, TurnRecord } from '../types.ts';

export interface TrajectoryToolCall {
  id: string;
  name: string;
  /** The arguments as the model sent them (parsed when they were JSON). */
  arguments: unknown;
  /** Audit-log seqs of the requests the call made. */
  seqs: number[];
}

export interface TrajectoryResult {
  /** The tool call this answers (absent for a request made outside the tools). */
  callId?: string;
  text: string;
  isError?: boolean;
}

export interface TrajectoryStep {
  /** 1-based, in order. */
  n: number;
  source: 'system' | 'user' | 'agent';
  text: string;
  toolCalls: TrajectoryToolCall[];
  results: TrajectoryResult[];
  /** Requests of this step outside any tool call (agents without a conversation: the oracle, custom agents). */
  requests: number[];
  /** The model call behind an agent step, when the episode recorded its turns. */
  turn?: TurnRecord;
}

export interface Trajectory {
  steps: TrajectoryStep[];
  /** Whether the steps come from a model conversation (else from the audit log). */
  conversation: boolean;
  /** The system prompt and the instruction, when the transcript holds them. */
  system?: string;
  instruction?: string;
}

type Json = Record<string, unknown>;

const isRecord = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);

function parseArgs(text: unknown): unknown {
  if (typeof text !== 'string') return text ?? {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function blockText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((b) => (isRecord(b) && typeof b.text === 'string' ? b.text : '')).filter(Boolean).join('\n');
  return '';
}

/** The transcript's API shape: OpenAI messages have a `tool` role or a system message first; Anthropic ones content blocks. */
function transcriptShape(transcript: unknown[]): 'openai' | 'anthropic' | 'none' {
  if (!transcript.every((m) => isRecord(m) && typeof m.role === 'string') || transcript.length === 0) return 'none';
  const messages = transcript as Json[];
  if (messages.some((m) => m.role === 'system' || m.role === 'tool' || Array.isArray(m.tool_calls))) return 'openai';
  return 'anthropic';
}

function stepsFromOpenAi(messages: Json[]): TrajectoryStep[] {
  const steps: TrajectoryStep[] = [];
  for (const m of messages) {
    if (m.role === 'tool') {
      const last = steps.at(-1);
      const result: TrajectoryResult = { callId: String(m.tool_call_id ?? ''), text: blockText(m.content) };
      if (last?.source === 'agent') last.results.push(result);
      continue;
    }
    const calls = Array.isArray(m.tool_calls) ? (m.tool_calls as Json[]) : [];
    steps.push({
      n: 0, source: m.role === 'system' ? 'system' : m.role === 'assistant' ? 'agent' : 'user', text: blockText(m.content), results: [], requests: [],
      toolCalls: calls.map((c) => {
        const fn = isRecord(c.function) ? c.function : {};
        return { id: String(c.id ?? ''), name: String(fn.name ?? ''), arguments: parseArgs(fn.arguments), seqs: [] };
      }),
    });
  }
  return steps;
}

function stepsFromAnthropic(messages: Json[]): TrajectoryStep[] {
  const steps: TrajectoryStep[] = [];
  for (const m of messages) {
    const blocks = Array.isArray(m.content) ? (m.content as unknown[]).filter(isRecord) : [];
    const toolResults = blocks.filter((b) => b.type === 'tool_result');
    if (m.role === 'user' && toolResults.length > 0 && steps.at(-1)?.source === 'agent') {
      for (const b of toolResults) steps.at(-1)!.results.push({ callId: String(b.tool_use_id ?? ''), text: blockText(b.content), ...(b.is_error ? { isError: true } : {}) });
      continue;
    }
    steps.push({
      n: 0, source: m.role === 'assistant' ? 'agent' : 'user', text: blockText(m.content), results: [], requests: [],
      toolCalls: blocks.filter((b) => b.type === 'tool_use').map((b) => ({ id: String(b.id ?? ''), name: String(b.name ?? ''), arguments: b.input ?? {}, seqs: [] })),
    });
  }
  return steps;
}

/** A request as one line: `GET Observation?patient=x&code=y`. */
export function requestLine(entry: AuditEntry): string {
  const query = entry.query.map(([k, v]) => `${k}=${v}`).join('&');
  return `${entry.method} ${entry.path}${query ? `?${query}` : ''}`;
}

/** The requests of the episode's agent (the log's size-limit marker left out). */
export function agentRequests(log: AuditEntry[]): AuditEntry[] {
  return log.filter((e) => e.method !== 'NOTE');
}

export function buildTrajectory(episode: Pick<EpisodeResult, 'transcript' | 'log' | 'turns'>): Trajectory {
  const transcript = Array.isArray(episode.transcript) ? episode.transcript : [];
  const shape = transcriptShape(transcript);
  const requests = agentRequests(episode.log ?? []);
  if (shape === 'none') {
    // No conversation: each audited request is a step of the agent's.
    const steps = requests.map((entry, i): TrajectoryStep => ({
      n: i + 1, source: 'agent', text: '', toolCalls: [], requests: [entry.seq],
      results: [{ text: `${entry.status}${entry.resourceIds.length ? ` ${entry.resourceIds.join(', ')}` : ''}` }],
    }));
    return { steps, conversation: false };
  }
  const steps = shape === 'openai' ? stepsFromOpenAi(transcript as Json[]) : stepsFromAnthropic(transcript as Json[]);
  // Tie requests to calls, tool by tool, in order.
  const byTool = new Map<string, AuditEntry[]>();
  for (const e of requests) if (e.tool) byTool.set(e.tool, [...(byTool.get(e.tool) ?? []), e]);
  const callsByTool = new Map<string, TrajectoryToolCall[]>();
  for (const s of steps) for (const c of s.toolCalls) callsByTool.set(c.name, [...(callsByTool.get(c.name) ?? []), c]);
  for (const [tool, entries] of byTool) {
    const calls = callsByTool.get(tool) ?? [];
    if (calls.length === 0) continue;
    // When a tool made more requests than it had calls (paging), the extra ones go to the last call before them.
    entries.forEach((entry, i) => calls[Math.min(i, calls.length - 1)].seqs.push(entry.seq));
  }
  // Requests no tool call made (a custom agent's direct HTTP) join the agent step before them in time... unknowable
  // here, so they are listed as steps of their own at the end.
  const tied = new Set(steps.flatMap((s) => s.toolCalls.flatMap((c) => c.seqs)));
  for (const e of requests) {
    if (!tied.has(e.seq)) steps.push({ n: 0, source: 'agent', text: '', toolCalls: [], requests: [e.seq], results: [{ text: `${e.status}` }] });
  }
  const turns = episode.turns ?? [];
  let turn = 0;
  steps.forEach((s, i) => {
    s.n = i + 1;
    // A turn per model reply, in order (failed calls recorded with no reply are at the end and stay unmatched).
    if (s.source === 'agent' && s.requests.length === 0 && turn < turns.length) s.turn = turns[turn++];
  });
  return {
    steps, conversation: true,
    ...(steps[0]?.source === 'system' ? { system: steps[0].text } : {}),
    ...(steps.find((s) => s.source === 'user') ? { instruction: steps.find((s) => s.source === 'user')!.text } : {}),
  };
}

/** Tokens of a step's model call, when recorded. */
export function stepUsage(step: TrajectoryStep): TokenUsage | undefined {
  return step.turn?.usage;
}
