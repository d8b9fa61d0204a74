// Retrieval checks from the audit log: the agent actually fetched the resources that hold the evidence (a read, or
// a search whose results listed them), instead of guessing.
import { isTabularOperationPath } from '../../contracts/operations.ts';
import type { AuditEntry } from '../../contracts/gym-api.ts';
import { matchOf, type Match } from './match.ts';
import { returned } from './safety.ts';

/**
 * The first successful search of resources of `type`: GET [type], a compartment search (Patient/{id}/[type]) or POST
 * [type]/_search. With `patient`, only a search about that patient counts (its patient/subject parameter, or the
 * patient's compartment). For "did the agent look at the problem list / the medication orders at all".
 */
export function searchOf(log: AuditEntry[], type: string, patient?: string): AuditEntry | undefined {
  const refs = patient === undefined ? [] : [patient, `Patient/${patient}`];
  const about = (e: AuditEntry): boolean => {
    if (patient === undefined) return true;
    if (e.path.replace(/^\/+/, '').startsWith(`Patient/${patient}/`)) return true;
    const params = e.method === 'POST' && e.requestBody && typeof e.requestBody === 'object'
      ? Object.entries(e.requestBody as Record<string, unknown>).map(([k, v]) => [k, String(v)] as [string, string])
      : e.query;
    return [...e.query, ...params].some(([k, v]) => ['patient', 'subject', 'subject:Patient'].includes(k) && refs.includes(v));
  };
  return log.find((e) => e.status < 300 && about(e)
    && ((e.method === 'GET' && (e.path === type || e.path.endsWith(`/${type}`))) || (e.method === 'POST' && (e.path === `${type}/_search` || e.path.endsWith(`/${type}/_search`)))));
}

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

/** A successful SQL on FHIR request: `$run` / `$viewdefinition-run` (POST or GET) or `$sqlquery-run`. */
function viewRequest(entry: AuditEntry): boolean {
  return entry.status < 300 && isTabularOperationPath(entry.path);
}

/** The ViewDefinitions an audited request ran: inline `viewResource`/`view` parts of its Parameters body. */
function viewsOf(entry: AuditEntry): Record<string, unknown>[] {
  const body = entry.requestBody as { resourceType?: string; parameter?: { name?: string; resource?: unknown }[] } | undefined;
  if (body?.resourceType !== 'Parameters') return [];
  return (body.parameter ?? []).filter((p) => (p.name === 'viewResource' || p.name === 'view') && p.resource && typeof p.resource === 'object')
    .map((p) => p.resource as Record<string, unknown>);
}

/**
 * The population-level alternative to fetching every resource: some successful SQL on FHIR request ran an inline
 * view over `resource` whose definition mentions every one of `terms` (e.g. the LOINC code it filters on).
 */
export function queriedByView(log: AuditEntry[], resource: string, terms: string[] = [], what = `${resource} view`): Match {
  for (const entry of log.filter(viewRequest)) {
    const view = viewsOf(entry).find((v) => v.resource === resource && terms.every((term) => JSON.stringify(v).includes(term)));
    if (view) return matchOf([], [`${what}: #${entry.seq} ${entry.method} ${entry.path} ran a view over ${resource}${terms.length ? ` mentioning ${terms.join(', ')}` : ''}`]);
  }
  return matchOf([`no successful $run/$sqlquery-run with a view over ${resource}${terms.length ? ` mentioning ${terms.join(', ')}` : ''}`]);
}

