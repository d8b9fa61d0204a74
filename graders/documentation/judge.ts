// Optional LLM judge for rubric items no record can settle (is the plan clinically appropriate?). Off by default:
// it runs only when configured (explicitly or by EHR_GYM_JUDGE_* variables). It calls an OpenAI-compatible chat
// completions endpoint at temperature 0, and records the model and the exact prompt with its result, which is reported
// apart from the deterministic checkpoints. A judge failure is a result with `error`, never an exception.
import { noteTextOf, type NoteInput } from './note-text.ts';

export interface JudgeConfig {
  /** OpenAI-compatible base URL, e.g. http://localhost:8000/v1 (the request goes to `${baseUrl}/chat/completions`). */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** System prompt; default JUDGE_PROMPT. */
  prompt?: string;
  timeoutMs?: number;
}

export interface RubricItem {
  id: string;
  description: string;
  /** Default 1. */
  points?: number;
}

export interface JudgeItemResult {
  id: string;
  met: boolean;
  rationale: string;
}

export interface JudgeResult {
  judge: 'llm';
  model: string;
  /** The system prompt and the user message sent, verbatim. */
  prompt: { system: string; user: string };
  items: JudgeItemResult[];
  /** Points met / points, in [0, 1]. */
  score: number;
  error?: string;
}

export const JUDGE_PROMPT = [
  'You are grading a clinical note written by an AI assistant for a physician.',
  'For each rubric item, decide whether the note meets it. Judge only what the note says; do not assume facts it does not state.',
  'Answer with JSON only: {"items": [{"id": "<rubric id>", "met": true|false, "rationale": "<one sentence>"}]} with one entry per rubric item.',
].join('\n');

/** The judge configured by the environment, or undefined (the default: no judge). */
export function judgeConfigFromEnv(env: Record<string, string | undefined> = process.env): JudgeConfig | undefined {
  const baseUrl = env.EHR_GYM_JUDGE_BASE_URL;
  const model = env.EHR_GYM_JUDGE_MODEL;
  if (!baseUrl || !model) return undefined;
  return { baseUrl, model, apiKey: env.EHR_GYM_JUDGE_API_KEY, ...(env.EHR_GYM_JUDGE_PROMPT ? { prompt: env.EHR_GYM_JUDGE_PROMPT } : {}) };
}

export async function judgeNote(config: JudgeConfig, note: NoteInput, rubric: RubricItem[], context?: string): Promise<JudgeResult> {
  const system = config.prompt ?? JUDGE_PROMPT;
  const user = JSON.stringify({ ...(context ? { context } : {}), note: noteTextOf(note), rubric: rubric.map(({ id, description }) => ({ id, description })) });
  const base: Omit<JudgeResult, 'items' | 'score'> = { judge: 'llm', model: config.model, prompt: { system, user } };
  const failed = (error: string): JudgeResult => ({ ...base, items: [], score: 0, error });
  let content: string;
  try {
    const res = await fetch(`${config.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}) },
      body: JSON.stringify({ model: config.model, temperature: 0, response_format: { type: 'json_object' }, messages: [{ role: 'system', content: system }, { role: 'user', content: user }] }),
      signal: AbortSignal.timeout(config.timeoutMs ?? 60_000),
    });
    if (!res.ok) return failed(`judge endpoint answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
    const body = (await res.json()) as { choices?: { message?: { content?: string } }[] };
    content = body.choices?.[0]?.message?.content ?? '';
  } catch (err) {
    return failed(`judge request failed: ${(err as Error).message}`);
  }
  let parsed: { items?: { id?: unknown; met?: unknown; rationale?: unknown }[] };
  try {
    parsed = JSON.parse(content.replace(/^```(?:json)?\s*|\s*```$/g, ''));
  } catch {
    return failed(`judge answer is not JSON: ${content.slice(0, 200)}`);
  }
  const items: JudgeItemResult[] = rubric.map((r) => {
    const found = parsed.items?.find((i) => i.id === r.id);
    return { id: r.id, met: found?.met === true, rationale: typeof found?.rationale === 'string' ? found.rationale : found ? '' : 'the judge did not rate this item' };
  });
  const total = rubric.reduce((s, r) => s + (r.points ?? 1), 0);
  const met = rubric.reduce((s, r, i) => s + (items[i].met ? r.points ?? 1 : 0), 0);
  return { ...base, items, score: total ? met / total : 0 };
}
