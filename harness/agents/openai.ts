// An OpenAI-compatible chat-completions agent: the model gets the gym tools (GET /gym/tools?format=openai) and each
// tool call runs through POST /gym/sessions/{id}/tools/{name}, so it is executed and audited by the server.
import type { Agent, AgentContext, AgentOutcome } from './agent.ts';

export interface OpenAiAgentOptions {
  /** e.g. https://api.openai.com/v1 or a local server's /v1 (env OPENAI_BASE_URL). */
  baseUrl: string;
  apiKey?: string;
  model: string;
  maxTurns: number;
  /** Retries of a failed completion request (429, 5xx, network). */
  retries: number;
  retryDelayMs: number;
  temperature?: number;
  /** Per-request timeout. */
  timeoutMs: number;
}

export function openAiOptionsFromEnv(overrides: Partial<OpenAiAgentOptions> = {}): OpenAiAgentOptions {
  return {
    baseUrl: overrides.baseUrl ?? process.env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1',
    ...(overrides.apiKey ?? process.env.OPENAI_API_KEY ? { apiKey: overrides.apiKey ?? process.env.OPENAI_API_KEY } : {}),
    model: overrides.model ?? process.env.OPENAI_MODEL ?? 'gpt-4o-mini',
    maxTurns: overrides.maxTurns ?? 40,
    retries: overrides.retries ?? 3,
    retryDelayMs: overrides.retryDelayMs ?? 1000,
    timeoutMs: overrides.timeoutMs ?? 120_000,
    ...(overrides.temperature !== undefined ? { temperature: overrides.temperature } : {}),
  };
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

class CompletionError extends Error {
  constructor(message: string, readonly retryable: boolean) {
    super(message);
  }
}

async function complete(options: OpenAiAgentOptions, body: unknown): Promise<Completion> {
  let lastError: Error | undefined;
  for (let attempt = 0; attempt <= options.retries; attempt++) {
    if (attempt > 0) await new Promise((r) => setTimeout(r, options.retryDelayMs * 2 ** (attempt - 1)));
    try {
      const response = await fetch(`${options.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      const text = await response.text();
      if (!response.ok) throw new CompletionError(`chat completion ${response.status}: ${text.slice(0, 300)}`, response.status === 429 || response.status >= 500);
      return JSON.parse(text) as Completion;
    } catch (err) {
      lastError = err as Error;
      if (err instanceof CompletionError && !err.retryable) throw err;
    }
  }
  throw lastError ?? new Error('chat completion failed');
}

export function openAiAgent(options: OpenAiAgentOptions): Agent {
  return {
    name: `openai:${options.model}`,
    async run(ctx: AgentContext): Promise<AgentOutcome> {
      const tools = await ctx.gym.tools('openai');
      const messages: ChatMessage[] = [
        { role: 'system', content: systemPrompt(ctx) },
        { role: 'user', content: ctx.instruction },
      ];
      const tokens = { prompt: 0, completion: 0 };
      const transcript: unknown[] = messages.map((m) => ({ ...m }));
      const outcome = (error?: string): AgentOutcome => ({ transcript, tokens, ...(error ? { error } : {}) });
      for (let turn = 0; turn < options.maxTurns; turn++) {
        let completion: Completion;
        try {
          completion = await complete(options, {
            model: options.model, messages, tools, tool_choice: 'auto',
            ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
          });
        } catch (err) {
          return outcome((err as Error).message);
        }
        tokens.prompt += completion.usage?.prompt_tokens ?? 0;
        tokens.completion += completion.usage?.completion_tokens ?? 0;
        const message = completion.choices?.[0]?.message;
        if (!message) return outcome('the model returned no message');
        const assistant: ChatMessage = { role: 'assistant', content: message.content ?? null, ...(message.tool_calls?.length ? { tool_calls: message.tool_calls } : {}) };
        messages.push(assistant);
        transcript.push(assistant);
        if (!message.tool_calls || message.tool_calls.length === 0) {
          // A reply without tool calls ends the episode; its text is the answer.
          await ctx.gym.submit(ctx.session.id, message.content ?? '');
          return outcome();
        }
        let finished = false;
        for (const call of message.tool_calls) {
          let args: unknown;
          let text: string;
          try {
            args = call.function.arguments ? JSON.parse(call.function.arguments) : {};
            const result = await ctx.gym.callTool(ctx.session.id, call.function.name, args);
            text = result.text;
            if (result.finished) finished = true;
          } catch (err) {
            text = `Tool call failed: ${(err as Error).message}`;
          }
          const reply: ChatMessage = { role: 'tool', tool_call_id: call.id, content: text };
          messages.push(reply);
          transcript.push(reply);
        }
        if (finished) return outcome();
      }
      return outcome(`no finish within ${options.maxTurns} turns`);
    },
  };
}
