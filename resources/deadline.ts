// A per-request time budget. The FHIR engine is synchronous (better-sqlite3), so one long request holds the event loop
// and every other session waits: the work is stopped cooperatively instead, by checking the deadline at the points
// where a request loops over data (search result assembly, _include rounds, batch entries, $everything, $expand).
import { tooCostly } from './outcome.ts';

/** Time spent so far in process-wide one-time work (see warmUp). */
let warmUpMillis = 0;

/**
 * Runs process-wide work done once, on first use (building the terminology index): its time is charged to no
 * request's budget, so the first request of a cold process is not cut for it.
 */
export function warmUp<T>(build: () => T): T {
  const started = performance.now();
  try {
    return build();
  } finally {
    warmUpMillis += performance.now() - started;
  }
}

export class Deadline {
  private readonly expiresAt: number;
  private readonly warmUpAtStart = warmUpMillis;

  /** `budgetMs`: 0 or Infinity means no budget. */
  constructor(readonly budgetMs: number, private readonly now: () => number = () => performance.now()) {
    this.expiresAt = budgetMs > 0 ? now() + budgetMs : Infinity;
  }

  /** Throws a 422 `too-costly` FhirError once the budget is spent; `where` names the work that was stopped. */
  check(where: string): void {
    if (this.now() - (warmUpMillis - this.warmUpAtStart) > this.expiresAt) throw this.exceeded(where);
  }

  private exceeded(where: string) {
    return tooCostly(`The request ran past its time budget of ${this.budgetMs} ms (stopped during ${where}); narrow it (fewer results, _count, fewer _include) and retry`);
  }
}

/** For callers without a request (tests, benchmarks, the seed): never expires. */
export const NO_DEADLINE = new Deadline(0);
