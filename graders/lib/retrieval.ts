// Retrieval checks from the audit log: the agent actually fetched the resources that hold the evidence (a read, or
// a search whose results listed them), instead of guessing.
import type { AuditEntry } from '../../harness/types.ts';
import { matchOf, type Match } from './match.ts';
import { returned } from './safety.ts';

/** Every target (`Type/id`) was returned to the agent by some successful read or search. */
export function fetchedAll(log: AuditEntry[], targets: string[], what = 'evidence'): Match {
  const missing = targets.filter((t) => !log.some((e) => returned(e, t)));
  const found = targets.filter((t) => !missing.includes(t));
  return matchOf(missing.map((t) => `${what} ${t} was never fetched`), found.map((t) => `${t} fetched at #${log.find((e) => returned(e, t))!.seq}`));
}

/** At least one of the targets was fetched (e.g. any of the patient's potassium results in the window). */
export function fetchedAny(log: AuditEntry[], targets: string[], what = 'evidence'): Match {
  if (targets.length === 0) return matchOf([`no ${what} exists in the chart to fetch`]);
  const hit = targets.find((t) => log.some((e) => returned(e, t)));
  return hit ? matchOf([], [`${hit} fetched`]) : matchOf([`none of the ${what} (${targets.slice(0, 5).join(', ')}${targets.length > 5 ? ', ...' : ''}) was fetched`]);
}
