// A scripted model API on a real local HTTP server: each request is answered by the next step of a script (the last
// step repeats). A step returns a status, headers and a JSON (or text) body, so tests can send 429 with Retry-After,
// 500s, 529s and any reply shape. Every request is kept with its headers and parsed body.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Test } from 'tap';

export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
}

export interface StepAnswer {
  status?: number;
  headers?: Record<string, string>;
  /** A JSON value, or text sent as is. */
  body: unknown;
  /** Answer only after this long (to let an episode's deadline pass first; never asserted on). */
  delayMs?: number;
}

export type Step = (request: SeenRequest, index: number) => StepAnswer;

export interface FakeModel {
  /** http://127.0.0.1:PORT */
  url: string;
  seen: SeenRequest[];
}

export async function fakeModel(t: Test, script: Step[]): Promise<FakeModel> {
  const seen: SeenRequest[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const request: SeenRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: text ? JSON.parse(text) : undefined };
    seen.push(request);
    const index = seen.length - 1;
    const answer = script[Math.min(index, script.length - 1)](request, index);
    if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
    if (res.destroyed) return;
    const body = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
    res.writeHead(answer.status ?? 200, { 'content-type': typeof answer.body === 'string' ? 'text/plain' : 'application/json', ...answer.headers }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

// OpenAI Chat Completions replies.
export const toolCall = (id: string, name: string, args: unknown) => ({ id, type: 'function', function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) } });

export function completion(message: { content?: string | null; tool_calls?: unknown[] }, finishReason = message.tool_calls ? 'tool_calls' : 'stop', usage = { prompt_tokens: 100, completion_tokens: 10 }): StepAnswer {
  return { body: { id: 'chatcmpl-1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: message.content ?? null, ...(message.tool_calls ? { tool_calls: message.tool_calls } : {}) }, finish_reason: finishReason }], usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } } };
}

// Anthropic Messages replies (content blocks, stop_reason, usage).
export function message(content: unknown[], stopReason: string, usage = { input_tokens: 200, output_tokens: 20 }): StepAnswer {
  return { body: { id: 'msg_01', type: 'message', role: 'assistant', model: 'claude-test', content, stop_reason: stopReason, stop_sequence: null, usage } };
}

export const toolUse = (id: string, name: string, input: unknown) => ({ type: 'tool_use', id, name, input });

/** Anthropic's error body. */
export const anthropicError = (status: number, type: string, headers: Record<string, string> = {}): StepAnswer => ({
  status, headers, body: { type: 'error', error: { type, message: `${type} (fake)` } },
});
