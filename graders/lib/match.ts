// The result of a matcher: every mismatch found (never only the first) and what was seen, so a failed checkpoint
// says exactly what was wrong.
import type { CheckResult } from '../../contracts/task.ts';

export interface Match<T = unknown> {
  ok: boolean;
  /** Every way the candidate differs from the expectation. */
  mismatches: string[];
  /** What the matcher looked at (ids, values), for the report. */
  evidence: string[];
  /** The best candidate, when the matcher chose among several. */
  candidate?: T;
}

export function matchOf<T>(mismatches: string[], evidence: string[] = [], candidate?: T): Match<T> {
  return { ok: mismatches.length === 0, mismatches, evidence, ...(candidate === undefined ? {} : { candidate }) };
}

/**
 * Match each candidate and keep the best (fewest mismatches). When none matches, the mismatches of every candidate
 * are reported, labelled, so a near miss (right drug, wrong dose) is visible next to the others.
 */
export function bestOf<T>(candidates: T[], matcher: (c: T) => Match<T>, label: (c: T) => string, noneFound: string): Match<T> {
  if (candidates.length === 0) return matchOf<T>([noneFound]);
  const results = candidates.map((c) => ({ c, m: matcher(c) }));
  const passing = results.find((r) => r.m.ok);
  if (passing) return { ...passing.m, evidence: [`${label(passing.c)} matches`, ...passing.m.evidence], candidate: passing.c };
  results.sort((a, b) => a.m.mismatches.length - b.m.mismatches.length);
  const best = results[0];
  return {
    ok: false,
    mismatches: results.flatMap((r) => r.m.mismatches.map((m) => `${label(r.c)}: ${m}`)),
    evidence: results.flatMap((r) => r.m.evidence.map((e) => `${label(r.c)}: ${e}`)),
    candidate: best.c,
  };
}

/** A checkpoint result from a match: mismatches (or the evidence of success) become the evidence. */
export function verdict(match: Match, failure?: string): CheckResult {
  if (match.ok) return { pass: true, evidence: match.evidence.length > 0 ? match.evidence : ['matched'] };
  return { pass: false, evidence: [...match.mismatches, ...match.evidence], ...(failure ? { failure } : {}) };
}

export function pass(...evidence: string[]): CheckResult {
  return { pass: true, evidence };
}

export function fail(evidence: string | string[], failure?: string): CheckResult {
  return { pass: false, evidence: Array.isArray(evidence) ? evidence : [evidence], ...(failure ? { failure } : {}) };
}

/** All of several matches (e.g. an order and its discontinuation) as one result, reporting every mismatch. */
export function allOf(...matches: Match[]): Match {
  return matchOf(matches.flatMap((m) => m.mismatches), matches.flatMap((m) => m.evidence));
}

/** Either match passes (e.g. fetched every resource by REST, or queried them with a view); reports both on failure. */
export function anyOf(...matches: Match[]): Match {
  const ok = matches.find((m) => m.ok);
  return ok ?? matchOf(matches.flatMap((m) => m.mismatches), matches.flatMap((m) => m.evidence));
}
