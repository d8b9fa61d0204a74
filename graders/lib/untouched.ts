// "Existing orders untouched": the chart the agent found is still there. Touching means updating or deleting a
// resource that existed when the episode began; adding a new, appropriate order (a urinalysis next to the requested
// note) is not touching anything, and whether a new order is appropriate is judged by the task's own checkpoints.
import type { Resource } from '@medplum/fhirtypes';
import type { ResourceChange } from '../../contracts/gym-api.ts';
import { matchOf, type Match } from './match.ts';

export interface UntouchedOptions {
  /**
   * Further pre-existing resources the task lets the agent change, as "Type/id" references or a predicate over the
   * change (e.g. any Condition, when updating the problem list is part of the work).
   */
  allow?: string[] | ((change: ResourceChange) => boolean);
  /** Only these resource types count (e.g. ['MedicationRequest', 'ServiceRequest'] for "orders"); default: every type. */
  types?: string[];
}

/** The resource without server-maintained fields (meta), keys sorted, to tell a real edit from a re-save. */
function content(resource: Resource | null): string {
  if (!resource) return '';
  const { meta: _meta, ...rest } = resource;
  return JSON.stringify(sortKeys(rest));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]));
}

/**
 * No pre-existing resource was updated or deleted, except the `targets` the task asks the agent to change (their
 * change is judged by their own checkpoint) and what `allow` permits. Creations, including ones the agent later
 * deleted, never count; an update that leaves the content as it was (a re-save) does not either.
 */
export function untouchedExcept(changes: ResourceChange[], targets: string[] = [], options: UntouchedOptions = {}): Match {
  const allowed = (change: ResourceChange): boolean => {
    const ref = `${change.type}/${change.id}`;
    if (targets.includes(ref)) return true;
    if (Array.isArray(options.allow)) return options.allow.includes(ref);
    return options.allow?.(change) ?? false;
  };
  const mismatches: string[] = [];
  let created = 0;
  for (const change of changes) {
    if (options.types && !options.types.includes(change.type)) continue;
    if (change.action === 'created' || change.action === 'created-then-deleted' || change.before === null) {
      created++;
      continue;
    }
    if (allowed(change)) continue;
    if (change.action === 'updated' && content(change.before) === content(change.after)) continue;
    const status = (r: Resource | null) => (r as { status?: string } | null)?.status;
    const detail = change.action === 'deleted' ? 'deleted' : status(change.before) !== status(change.after) ? `updated (status ${status(change.before) ?? '?'} -> ${status(change.after) ?? '?'})` : 'updated';
    mismatches.push(`${change.type}/${change.id} existed before the episode and was ${detail}`);
  }
  return matchOf(mismatches, [`${changes.length} changes checked: ${created} new resources (allowed), ${targets.length} target(s) excluded`]);
}
