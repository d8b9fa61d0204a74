// The tool-use loop every model agent shares (OpenAI Chat Completions, Anthropic Messages): offer the gym tools, call
// the model, run its tool calls in the session over HTTP (executed and audited by the server), feed the results back,
// until `finish`, a final text reply, or a budget. What is the agent's doing and what is not is kept apart:
// - the model API failing after its retries (or refusing the request) is an infrastructure failure (`infraError`);
//   so is the gym server failing a tool call with a 5xx or not answering;
// - exhausted budgets (turns, episode tokens, episode time) and a final reply cut at the output limit are the agent's.
// Each model call is recorded (latency, usage, finish reason, retries).
import type { AgentContext, AgentOutcome } from './agent.ts';
import { EpisodeDeadlineError, ModelApiError, type ApiResponse } from './model-api.ts';
import { isGymInfraFailure } from '../gym-client.ts';
import { decodeStrictArguments, truncate } from '../../server/tools/render.ts';
import type { ToolDefinition } from '../../server/tools/tool.ts';
import type { ModelSettings, TokenUsage, TurnRecord } from '../types.ts';

/**
 * Characters of one tool result the model sees. A 128k-token context holds roughly 500k characters of JSON (about 4
 * characters a token); one result may take an eighth of it, so a few large reads still leave room for the rest.
 */
export const DEFAULT_TOOL_OUTPUT_LIMIT = 64_000;

/** A tool call as the model made it. */
export interface ToolUse {
  id: string;
  name: string;
  /** The parsed arguments. */
  input?: unknown;
  /** Why the arguments could not be read (not JSON, not an object), with what the model sent. */
  malformed?: string;
}

export interface ModelReply {
  text: string;
  toolUses: ToolUse[];
  finishReason: string;
  /** Cut at the output token limit. */
  truncated: boolean;
  usage: TokenUsage;
}

/** One API's side of a conversation: its request, its reply shape, its way of returning tool results. */
export interface Conversation {
  /** Every message sent or received, in the API's own shape (the episode's transcript). */
  readonly messages: unknown[];
  /** One model call over the messages so far; the reply is appended as the assistant's message. */
  next(deadline?: AbortSignal): Promise<ApiResponse & { reply: ModelReply }>;
  addToolResults(results: { id: string; text: string; isError: boolean }[]): void;
}

export interface ModelAgentOptions {
  settings: ModelSettings;
  /** Renders the gym's tool definitions for this API (strict or not), exactly as they will be sent. */
  renderTools(tools: ToolDefinition[], strict: boolean): unknown[];
  start(ctx: AgentContext, tools: unknown[]): Conversation;
}

/** Arguments text as a JSON object, or why it is not one. */
export function parseArguments(text: string | undefined): { input: unknown } | { malformed: string } {
  if (text === undefined || text.trim() === '') return { input: {} };
  try {
    const input = JSON.parse(text) as unknown;
    if (input === null || typeof input !== 'object' || Array.isArray(input)) return { malformed: `the arguments must be a JSON object, got ${text.slice(0, 200)}` };
    return { input };
  } catch (err) {
    return { malformed: `the arguments are not valid JSON (${(err as Error).message}): ${text.slice(0, 200)}` };
  }
}

export function systemPrompt(ctx: AgentContext): string {
  const requester = ctx.task.spec.requester.display ?? ctx.task.spec.requester.reference;
  return [
    'You are a physician agent working in an electronic health record through FHIR R4 tools.',
    `The current date and time is ${ctx.session.now}. The request comes from ${requester} (${ctx.task.spec.requester.reference}).`,
    ctx.patient ? `The patient is Patient/${ctx.patient}.` : 'This is a population-level request.',
    'Look up what you need in the chart, make any orders or notes the request calls for by writing FHIR resources, ',
    'and call finish with your answer when you are done.',
  ].join(' ');
}

export async function runModelAgent(ctx: AgentContext, options: ModelAgentOptions): Promise<AgentOutcome> {
  const { settings } = options;
  const definitions = (await ctx.gym.tools('neutral')) as ToolDefinition[];
  const byName = new Map(definitions.map((d) => [d.name, d]));
  const toolsOffered = options.renderTools(definitions, settings.strict);
  const conversation = options.start(ctx, toolsOffered);
  const tokens: TokenUsage = { prompt: 0, completion: 0 };
  const turns: TurnRecord[] = [];
  const outcome = (end: Pick<AgentOutcome, 'error' | 'infraError' | 'truncatedFinalReply'> = {}): AgentOutcome => ({
    transcript: conversation.messages, tokens, turns, toolsOffered, settings, ...end,
  });
  const deadline = settings.episodeTimeLimitMs !== undefined ? AbortSignal.timeout(settings.episodeTimeLimitMs) : undefined;
  const timeLimit = () => `episode time limit of ${settings.episodeTimeLimitMs} ms reached`;
  for (let turn = 1; turn <= settings.maxTurns; turn++) {
    if (deadline?.aborted) return outcome({ error: timeLimit() });
    if (settings.maxEpisodeTokens !== undefined && tokens.prompt + tokens.completion >= settings.maxEpisodeTokens) {
      return outcome({ error: `episode token budget of ${settings.maxEpisodeTokens} exhausted (${tokens.prompt + tokens.completion} used)` });
    }
    const startedAt = new Date().toISOString();
    let answer: Awaited<ReturnType<Conversation['next']>>;
    try {
      answer = await conversation.next(deadline);
    } catch (err) {
      if (err instanceof EpisodeDeadlineError) {
        turns.push({ turn, startedAt, latencyMs: 0, usage: { prompt: 0, completion: 0 }, finishReason: 'deadline', truncated: false, toolCalls: 0, retries: err.retries });
        return outcome({ error: timeLimit() });
      }
      if (err instanceof ModelApiError) {
        turns.push({ turn, startedAt, latencyMs: 0, usage: { prompt: 0, completion: 0 }, finishReason: 'api_error', truncated: false, toolCalls: 0, retries: err.retries });
        return outcome({ infraError: err.message });
      }
      // A reply the adapter could not read: the API broke its contract.
      return outcome({ infraError: `unreadable model reply: ${(err as Error).message}` });
    }
    const { reply } = answer;
    tokens.prompt += reply.usage.prompt;
    tokens.completion += reply.usage.completion;
    turns.push({
      turn, startedAt, latencyMs: answer.latencyMs, usage: reply.usage, finishReason: reply.finishReason,
      truncated: reply.truncated, toolCalls: reply.toolUses.length, retries: answer.retries,
    });
    if (reply.toolUses.length === 0) {
      // A text reply ends the episode and is the answer, unless the output limit cut it: half an answer is not graded
      // as one.
      if (reply.truncated) return outcome({ error: `final reply cut at the output token limit (${reply.finishReason}); not submitted`, truncatedFinalReply: true });
      try {
        await ctx.gym.submit(ctx.session.id, reply.text);
      } catch (err) {
        return isGymInfraFailure(err) ? outcome({ infraError: `gym submit failed: ${(err as Error).message}` }) : outcome({ error: `submit refused: ${(err as Error).message}` });
      }
      return outcome();
    }
    const results: { id: string; text: string; isError: boolean }[] = [];
    let finished = false;
    for (const use of reply.toolUses) {
      if (use.malformed !== undefined) {
        results.push({ id: use.id, text: `Tool call failed: ${use.malformed}`, isError: true });
        continue;
      }
      const definition = byName.get(use.name);
      // Unknown names go to the server too, which answers with the list of tools (and audits nothing).
      const input = settings.strict && definition ? decodeStrictArguments(definition.parameters, use.input) : use.input;
      try {
        const result = await ctx.gym.callTool(ctx.session.id, use.name, input);
        results.push({ id: use.id, text: truncate(result.text, settings.toolOutputLimit), isError: result.isError });
        if (result.finished) finished = true;
      } catch (err) {
        if (isGymInfraFailure(err)) return outcome({ infraError: `gym tool call ${use.name} failed: ${(err as Error).message}` });
        results.push({ id: use.id, text: `Tool call failed: ${(err as Error).message}`, isError: true });
      }
    }
    conversation.addToolResults(results);
    if (finished) return outcome();
  }
  return outcome({ error: `no finish within ${settings.maxTurns} turns` });
}
