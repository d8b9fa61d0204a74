// An OpenAI-compatible Chat Completions agent (`--agent openai`): the gym tools as function tools (strict mode with
// --strict), each tool call run through POST /gym/sessions/{id}/tools/{name} (executed and audited by the server).
// The loop, budgets and accounting are model-loop.ts's.
import type { Agent, AgentContext, AgentOutcome } from './agent.ts';
import { defaultRetryPolicy, postJson, type RetryPolicy } from './model-api.ts';
import { DEFAULT_TOOL_OUTPUT_LIMIT, parseArguments, runModelAgent, systemPrompt, type Conversation, type ModelReply } from './model-loop.ts';
import { strictSchema } from '../../server/tools/render.ts';
import { toOpenAiTool } from '../../server/tools/index.ts';
import type { ToolDefinition } from '../../server/tools/tool.ts';
import type { ModelSettings } from '../types.ts';

export interface OpenAiAgentOptions {
  /** e.g. https://api.openai.com/v1 or a local server's /v1 (env OPENAI_BASE_URL). */
  baseUrl: string;
  apiKey?: string;
  model: string;
  maxTurns: number;
  /** Retries of a failed completion request (408, 409, 429, 5xx, network, timeout). */
  retries: number;
  /** First backoff step when the server sends no Retry-After. */
  retryDelayMs: number;
  temperature?: number;
  /** max_completion_tokens of one reply. */
  maxTokens?: number;
  /** Prompt plus completion tokens of one episode. */
  maxEpisodeTokens?: number;
  episodeTimeLimitMs?: number;
  toolOutputLimit?: number;
  strict?: boolean;
  /** Per-request timeout. */
  timeoutMs: number;
  price?: ModelSettings['price'];
  /** Jitter source (tests pin it). */
  random?: () => number;
}

export function openAiOptionsFromEnv(overrides: Partial<OpenAiAgentOptions> = {}): OpenAiAgentOptions {
  const apiKey = overrides.apiKey ?? process.env.OPENAI_API_KEY;
  return {
    ...overrides,
    baseUrl: overrides.baseUrl ?? process.env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1',
    ...(apiKey ? { apiKey } : {}),
    model: overrides.model ?? process.env.OPENAI_MODEL ?? 'gpt-4o-mini',
    maxTurns: overrides.maxTurns ?? 40,
    retries: overrides.retries ?? defaultRetryPolicy.retries,
    retryDelayMs: overrides.retryDelayMs ?? defaultRetryPolicy.baseDelayMs,
    timeoutMs: overrides.timeoutMs ?? defaultRetryPolicy.timeoutMs,
  };
}

/** The settings an episode records (never the API key). */
export function modelSettings(provider: string, o: Omit<OpenAiAgentOptions, 'apiKey'>): ModelSettings {
  return {
    provider, model: o.model, baseUrl: o.baseUrl,
    ...(o.temperature !== undefined ? { temperature: o.temperature } : {}), ...(o.maxTokens !== undefined ? { maxTokens: o.maxTokens } : {}),
    maxTurns: o.maxTurns,
    ...(o.maxEpisodeTokens !== undefined ? { maxEpisodeTokens: o.maxEpisodeTokens } : {}), ...(o.episodeTimeLimitMs !== undefined ? { episodeTimeLimitMs: o.episodeTimeLimitMs } : {}),
    toolOutputLimit: o.toolOutputLimit ?? DEFAULT_TOOL_OUTPUT_LIMIT, strict: o.strict ?? false,
    retries: o.retries, requestTimeoutMs: o.timeoutMs, ...(o.price ? { price: o.price } : {}),
  };
}

export function retryPolicyOf(o: Pick<OpenAiAgentOptions, 'retries' | 'retryDelayMs' | 'timeoutMs' | 'random'>): RetryPolicy {
  return { ...defaultRetryPolicy, retries: o.retries, baseDelayMs: o.retryDelayMs, timeoutMs: o.timeoutMs, ...(o.random ? { random: o.random } : {}) };
}

export function openAiTools(tools: ToolDefinition[], strict: boolean): unknown[] {
  return tools.map((t) => {
    const tool = toOpenAiTool(t);
    return strict ? { ...tool, function: { ...tool.function, parameters: strictSchema(t.parameters), strict: true } } : tool;
  });
}

interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
}

interface Completion {
  choices?: { message?: ChatMessage; finish_reason?: string }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

class ChatCompletions implements Conversation {
  readonly messages: ChatMessage[];

  constructor(private readonly options: OpenAiAgentOptions, private readonly tools: unknown[], ctx: AgentContext) {
    this.messages = [{ role: 'system', content: systemPrompt(ctx) }, { role: 'user', content: ctx.instruction }];
  }

  async next(deadline?: AbortSignal) {
    const o = this.options;
    const response = await postJson(`${o.baseUrl.replace(/\/+$/, '')}/chat/completions`, o.apiKey ? { authorization: `Bearer ${o.apiKey}` } : {}, {
      model: o.model, messages: this.messages, tools: this.tools, tool_choice: 'auto',
      ...(o.temperature !== undefined ? { temperature: o.temperature } : {}),
      ...(o.maxTokens !== undefined ? { max_completion_tokens: o.maxTokens } : {}),
    }, retryPolicyOf(o), deadline);
    const completion = response.body as Completion;
    const choice = completion.choices?.[0];
    if (!choice?.message) throw new Error(`no message in the completion: ${JSON.stringify(completion).slice(0, 200)}`);
    const message = choice.message;
    const calls = message.tool_calls ?? [];
    const assistant: ChatMessage = { role: 'assistant', content: message.content ?? null, ...(calls.length > 0 ? { tool_calls: calls } : {}) };
    this.messages.push(assistant);
    const finishReason = choice.finish_reason ?? 'unknown';
    const reply: ModelReply = {
      text: message.content ?? '',
      toolUses: calls.map((c) => ({ id: c.id, name: c.function?.name ?? '', ...parseArguments(c.function?.arguments) })),
      finishReason, truncated: finishReason === 'length',
      usage: { prompt: completion.usage?.prompt_tokens ?? 0, completion: completion.usage?.completion_tokens ?? 0 },
    };
    return { ...response, reply };
  }

  addToolResults(results: { id: string; text: string }[]): void {
    for (const r of results) this.messages.push({ role: 'tool', tool_call_id: r.id, content: r.text });
  }
}

export function openAiAgent(options: OpenAiAgentOptions): Agent {
  const settings = modelSettings('openai', options);
  return {
    name: `openai:${options.model}`,
    run: (ctx: AgentContext): Promise<AgentOutcome> => runModelAgent(ctx, {
      settings, renderTools: openAiTools,
      start: (c, tools) => new ChatCompletions(options, tools, c),
    }),
  };
}
