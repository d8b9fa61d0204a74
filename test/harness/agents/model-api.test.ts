// The retry rules of model requests (harness/agents/model-api.ts): which statuses are retried, how Retry-After is read
// (retry-after-ms, delay-seconds, HTTP date), and the jittered, capped backoff without one.
import t from 'tap';
import { backoffMs, defaultRetryPolicy, isRetryableStatus, retryAfterMs } from '../../../harness/agents/model-api.ts';

t.test('retryable statuses: 408, 409, 429 and every 5xx (Anthropic 529 included); other 4xx are final', async (t) => {
  for (const s of [408, 409, 429, 500, 502, 503, 504, 529]) t.ok(isRetryableStatus(s), String(s));
  for (const s of [400, 401, 403, 404, 413, 422]) t.notOk(isRetryableStatus(s), String(s));
});

t.test('Retry-After: retry-after-ms first, then seconds (fractions too) or an HTTP date; garbage is ignored', async (t) => {
  t.equal(retryAfterMs(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' })), 250);
  t.equal(retryAfterMs(new Headers({ 'retry-after': '2' })), 2000);
  t.equal(retryAfterMs(new Headers({ 'retry-after': '0.5' })), 500);
  const now = Date.parse('2026-01-01T00:00:00Z');
  t.equal(retryAfterMs(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:07 GMT' }), now), 7000);
  t.equal(retryAfterMs(new Headers({ 'retry-after': 'Wed, 31 Dec 2025 23:59:00 GMT' }), now), 0, 'a date in the past: no wait');
  t.equal(retryAfterMs(new Headers({ 'retry-after': 'soon' })), undefined);
  t.equal(retryAfterMs(new Headers()), undefined);
});

t.test('backoff: full jitter over base * 2^(n-1), capped at maxDelayMs', async (t) => {
  const policy = { ...defaultRetryPolicy, baseDelayMs: 100, maxDelayMs: 1000 };
  t.equal(backoffMs({ ...policy, random: () => 0.999999 }, 1), 100);
  t.equal(backoffMs({ ...policy, random: () => 0.5 }, 3), 200);
  t.equal(backoffMs({ ...policy, random: () => 0.999999 }, 10), 1000, 'capped');
  t.equal(backoffMs({ ...policy, random: () => 0 }, 4), 0, 'jitter reaches down to no wait');
});
