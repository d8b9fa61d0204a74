// One model API request with the retries a rate-limited, sometimes failing provider needs: 408, 409, 429 and 5xx
// (Anthropic's 529 overloaded included), network errors and timeouts are retried; the server's Retry-After (or
// OpenAI's retry-after-ms) is honoured, otherwise exponential backoff with full jitter. Every retry is recorded. What
// still fails is a ModelApiError: an infrastructure failure, not the agent's.
import type { RetryRecord } from '../types.ts';

export interface RetryPolicy {
  /** Retries after the first attempt. */
  retries: number;
  /** First backoff step; doubles per retry. */
  baseDelayMs: number;
  /** Ceiling of one wait, the server's Retry-After included. */
  maxDelayMs: number;
  /** One attempt's timeout. */
  timeoutMs: number;
  /** [0, 1) source for the jitter (tests pin it). */
  random?: () => number;
}

export const defaultRetryPolicy: RetryPolicy = { retries: 4, baseDelayMs: 1000, maxDelayMs: 120_000, timeoutMs: 180_000 };

/** The model API failed after its retries, or refused the request outright (4xx other than the retryable ones). */
export class ModelApiError extends Error {
  constructor(message: string, readonly status: number | undefined, readonly retries: RetryRecord[]) {
    super(message);
    this.name = 'ModelApiError';
  }
}

/** The episode's own deadline passed while waiting for the model: a budget, so the agent's failure. */
export class EpisodeDeadlineError extends Error {
  constructor(readonly retries: RetryRecord[]) {
    super('episode time limit reached while waiting for the model');
    this.name = 'EpisodeDeadlineError';
  }
}

const RETRYABLE = new Set([408, 409, 429]);

export function isRetryableStatus(status: number): boolean {
  return RETRYABLE.has(status) || status >= 500;
}

/**
 * The wait a response asks for, in ms: `retry-after-ms` (OpenAI), else `Retry-After` as delay-seconds (fractions
 * accepted) or an HTTP date (RFC 9110 10.2.3). Undefined when absent or unreadable.
 */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.round(Number(ms));
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Backoff before retry `attempt` (1-based) without a Retry-After: full jitter over base * 2^(attempt-1), capped. */
export function backoffMs(policy: RetryPolicy, attempt: number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round((policy.random ?? Math.random)() * ceiling);
}

export interface ApiResponse {
  body: unknown;
  retries: RetryRecord[];
  /** From the first attempt to the answer, waits included. */
  latencyMs: number;
}

const sleep = (ms: number, signal?: AbortSignal) => new Promise<void>((resolve, reject) => {
  if (signal?.aborted) return reject(signal.reason as Error);
  const timer = setTimeout(() => {
    signal?.removeEventListener('abort', onAbort);
    resolve();
  }, ms);
  const onAbort = () => {
    clearTimeout(timer);
    reject(signal!.reason as Error);
  };
  signal?.addEventListener('abort', onAbort, { once: true });
});

/**
 * POST `body` as JSON to `url` and parse the JSON answer, retrying per `policy`. `deadline` (an episode's time limit)
 * aborts attempts and waits; running into it throws EpisodeDeadlineError, everything else that still fails
 * ModelApiError.
 */
export async function postJson(url: string, headers: Record<string, string>, body: unknown, policy: RetryPolicy, deadline?: AbortSignal): Promise<ApiResponse> {
  const started = performance.now();
  const retries: RetryRecord[] = [];
  const payload = JSON.stringify(body);
  for (let attempt = 0; ; attempt++) {
    let status: number | undefined;
    let error: string;
    let asked: number | undefined;
    try {
      const signal = deadline ? AbortSignal.any([deadline, AbortSignal.timeout(policy.timeoutMs)]) : AbortSignal.timeout(policy.timeoutMs);
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: payload, signal });
      const text = await response.text();
      if (response.ok) {
        try {
          return { body: JSON.parse(text), retries, latencyMs: Math.round(performance.now() - started) };
        } catch {
          // A 200 that is not JSON (a proxy's error page): as broken as a 502.
          error = `answer is not JSON: ${text.slice(0, 200)}`;
        }
      } else {
        status = response.status;
        error = `${response.status} ${text.slice(0, 300)}`;
        asked = retryAfterMs(response.headers);
        if (!isRetryableStatus(response.status)) throw new ModelApiError(`model API ${error}`, status, retries);
      }
    } catch (err) {
      if (err instanceof ModelApiError) throw err;
      if (deadline?.aborted) throw new EpisodeDeadlineError(retries);
      const e = err as Error;
      error = e.name === 'TimeoutError' ? `timed out after ${policy.timeoutMs} ms` : `${e.message}${(e.cause as Error | undefined)?.message ? `: ${(e.cause as Error).message}` : ''}`;
    }
    if (attempt >= policy.retries) {
      throw new ModelApiError(`model API failed after ${policy.retries} retr${policy.retries === 1 ? 'y' : 'ies'}: ${error}`, status, retries);
    }
    const waitMs = asked !== undefined ? Math.min(asked, policy.maxDelayMs) : backoffMs(policy, attempt + 1);
    retries.push({ attempt: attempt + 1, ...(status !== undefined ? { status } : {}), error, waitMs, ...(asked !== undefined ? { retryAfterMs: asked } : {}) });
    try {
      await sleep(waitMs, deadline);
    } catch {
      throw new EpisodeDeadlineError(retries);
    }
  }
}
