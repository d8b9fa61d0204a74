// An Anthropic Messages API agent (`--agent anthropic`): the gym tools as Anthropic tools (strict with --strict), the
// model's tool_use blocks run through POST /gym/sessions/{id}/tools/{name}, their results returned as tool_result
// blocks in the next user message. Wire format: POST {base}/v1/messages with x-api-key and anthropic-version; the
// reply's content blocks, stop_reason (max_tokens = cut at the limit) and usage {input_tokens, output_tokens}.
import type { Agent, AgentContext, AgentOutcome } from './agent.ts';
import { postJson } from './model-api.ts';
import { parseArguments, runModelAgent, systemPrompt, type Conversation, type ModelReply } from './model-loop.ts';
import { modelSettings, openAiOptionsFromEnv, retryPolicyOf, type OpenAiAgentOptions } from './openai.ts';
import { strictSchema } from '../../server/tools/render.ts';
import { toAnthropicTool } from '../../server/tools/index.ts';
import type { ToolDefinition } from '../../server/tools/tool.ts';

export const ANTHROPIC_VERSION = '2023-06-01';
/** Anthropic requires max_tokens on every request. */
export const DEFAULT_ANTHROPIC_MAX_TOKENS = 4096;

/** The same settings as the OpenAI agent; baseUrl is the API root (https://api.anthropic.com), without /v1. */
export type AnthropicAgentOptions = OpenAiAgentOptions;

export function anthropicOptionsFromEnv(overrides: Partial<AnthropicAgentOptions> = {}): AnthropicAgentOptions {
  const apiKey = overrides.apiKey ?? process.env.ANTHROPIC_API_KEY;
  return openAiOptionsFromEnv({
    ...overrides,
    baseUrl: overrides.baseUrl ?? process.env.ANTHROPIC_BASE_URL ?? 'https://api.anthropic.com',
    model: overrides.model ?? process.env.ANTHROPIC_MODEL ?? 'claude-sonnet-4-5',
    maxTokens: overrides.maxTokens ?? DEFAULT_ANTHROPIC_MAX_TOKENS,
    // Never fall back to OPENAI_API_KEY: that key means nothing to this API.
    apiKey: apiKey ?? '',
  });
}

export function anthropicTools(tools: ToolDefinition[], strict: boolean): unknown[] {
  return tools.map((t) => (strict ? { ...toAnthropicTool(t), input_schema: strictSchema(t.parameters), strict: true } : toAnthropicTool(t)));
}

type Block =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'tool_result'; tool_use_id: string; content: string; is_error?: boolean };

interface Message {
  role: 'user' | 'assistant';
  content: string | Block[];
}

interface MessagesReply {
  type?: string;
  content?: Block[];
  stop_reason?: string | null;
  usage?: { input_tokens?: number; output_tokens?: number; cache_creation_input_tokens?: number; cache_read_input_tokens?: number };
}

class Messages implements Conversation {
  readonly messages: Message[];
  private readonly system: string;

  constructor(private readonly options: AnthropicAgentOptions, private readonly tools: unknown[], ctx: AgentContext) {
    this.system = systemPrompt(ctx);
    this.messages = [{ role: 'user', content: ctx.instruction }];
  }

  async next(deadline?: AbortSignal) {
    const o = this.options;
    const response = await postJson(`${o.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '')}/v1/messages`, {
      'anthropic-version': ANTHROPIC_VERSION, ...(o.apiKey ? { 'x-api-key': o.apiKey } : {}),
    }, {
      model: o.model, max_tokens: o.maxTokens ?? DEFAULT_ANTHROPIC_MAX_TOKENS, system: this.system, messages: this.messages, tools: this.tools,
      ...(o.temperature !== undefined ? { temperature: o.temperature } : {}),
    }, retryPolicyOf(o), deadline);
    const body = response.body as MessagesReply;
    if (!Array.isArray(body.content)) throw new Error(`no content in the message: ${JSON.stringify(body).slice(0, 200)}`);
    this.messages.push({ role: 'assistant', content: body.content });
    const stopReason = body.stop_reason ?? 'unknown';
    const uses = body.content.filter((b): b is Extract<Block, { type: 'tool_use' }> => b.type === 'tool_use');
    const usage = body.usage ?? {};
    const reply: ModelReply = {
      text: body.content.filter((b): b is Extract<Block, { type: 'text' }> => b.type === 'text').map((b) => b.text).join('\n'),
      // input is a JSON object on the wire; anything else (a string, an array) is as malformed as bad JSON from OpenAI.
      toolUses: uses.map((u) => ({
        id: u.id, name: u.name,
        ...(u.input !== null && typeof u.input === 'object' && !Array.isArray(u.input) ? { input: u.input } : parseArguments(typeof u.input === 'string' ? u.input : JSON.stringify(u.input))),
      })),
      finishReason: stopReason, truncated: stopReason === 'max_tokens',
      // Cached prompt tokens are prompt tokens too (billed differently; --price takes one input rate).
      usage: { prompt: (usage.input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0), completion: usage.output_tokens ?? 0 },
    };
    return { ...response, reply };
  }

  addToolResults(results: { id: string; text: string; isError: boolean }[]): void {
    this.messages.push({ role: 'user', content: results.map((r) => ({ type: 'tool_result', tool_use_id: r.id, content: r.text, ...(r.isError ? { is_error: true } : {}) })) });
  }
}

export function anthropicAgent(options: AnthropicAgentOptions): Agent {
  const settings = modelSettings('anthropic', options);
  return {
    name: `anthropic:${options.model}`,
    run: (ctx: AgentContext): Promise<AgentOutcome> => runModelAgent(ctx, {
      settings, renderTools: anthropicTools, start: (c, tools) => new Messages(options, tools, c),
    }),
  };
}
