// Fair use of the shared server: one client must not be able to fill the session table (every other client then
// gets 429) nor churn sessions faster than the server can build them. A client is whatever `request.ip` names: the
// remote address, or the address a trusted proxy reports (`trustProxy`, server/app.ts).
import { FhirError, issue } from '../../resources/outcome.ts';

export interface FairUseSettings {
  /** Live sessions one client may hold at once (Infinity: no per-client quota). */
  maxSessionsPerClient: number;
  /** Sessions one client may create in a burst before the rate applies (Infinity: no rate limit). */
  sessionCreateBurst: number;
  /** Sustained session creations per minute and client, once the burst is spent. */
  sessionCreatesPerMinute: number;
}

export const defaultFairUse: FairUseSettings = {
  maxSessionsPerClient: 100,
  sessionCreateBurst: 60,
  sessionCreatesPerMinute: 120,
};

/** A token bucket per client: `burst` tokens, refilled at `perMinute`; a creation takes one. */
interface Bucket {
  tokens: number;
  at: number;
}

/**
 * The per-client limits on session creation. Wall time comes from the session manager (tests pass their own clock),
 * which is why this is a few lines here rather than a rate-limit plugin keeping its own time.
 */
export class CreationLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly settings: FairUseSettings, private readonly wallTime: () => number) {}

  /**
   * Throws a 429 OperationOutcome with Retry-After when `client` holds its quota of live sessions or has spent its
   * creation budget; otherwise takes one token. `liveOfClient` is how many live sessions the client holds now.
   */
  admit(client: string, liveOfClient: number): void {
    const { maxSessionsPerClient, sessionCreateBurst, sessionCreatesPerMinute } = this.settings;
    if (liveOfClient >= maxSessionsPerClient) {
      // Sessions leave by DELETE or idle expiry; a minute is a fair time to try again.
      throw throttled(60, `This client already holds ${maxSessionsPerClient} live sessions, the most one client may hold; delete finished sessions (DELETE /gym/sessions/{id}) or wait for idle ones to expire`);
    }
    if (!Number.isFinite(sessionCreateBurst)) return;
    const now = this.wallTime();
    const perMs = sessionCreatesPerMinute / 60_000;
    const bucket = this.buckets.get(client) ?? { tokens: sessionCreateBurst, at: now };
    bucket.tokens = Math.min(sessionCreateBurst, bucket.tokens + Math.max(0, now - bucket.at) * perMs);
    bucket.at = now;
    if (bucket.tokens < 1) {
      this.buckets.set(client, bucket);
      const waitMs = perMs > 0 ? (1 - bucket.tokens) / perMs : 60_000;
      throw throttled(Math.max(1, Math.ceil(waitMs / 1000)),
        `Too many sessions created by this client: at most ${sessionCreateBurst} at once, then ${sessionCreatesPerMinute} a minute`);
    }
    bucket.tokens -= 1;
    this.buckets.set(client, bucket);
    this.forgetFullBuckets(now, perMs);
  }

  /** Buckets that have refilled completely carry no state worth keeping: bounded memory however many clients come. */
  private forgetFullBuckets(now: number, perMs: number): void {
    if (this.buckets.size < 1024) return;
    for (const [client, bucket] of this.buckets) {
      if (bucket.tokens + (now - bucket.at) * perMs >= this.settings.sessionCreateBurst) this.buckets.delete(client);
    }
  }
}

function throttled(retryAfterSeconds: number, diagnostics: string): FhirError {
  return new FhirError(429, [issue('error', 'throttled', diagnostics)], { 'retry-after': String(retryAfterSeconds) });
}
