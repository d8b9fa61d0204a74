// The search indexer's side of a bulk load that may run in a worker thread: index rows from the parameter keys
// alone (no database). Loaded by module URL (see BulkIndexer.preparer).
import type { Preparer } from '../storage/bulk.ts';
import { IndexRowBuilder } from './index-rows.ts';
import { defaultRegistry } from './registry.ts';

export function createPreparer(state: unknown): Preparer {
  const keys = new Map(state as [string, number][]);
  const builder = new IndexRowBuilder(defaultRegistry(), (type, code) => {
    const key = keys.get(`${type}.${code}`);
    // Keys are created when the store opens, for every indexed parameter: a missing one is a programming error.
    if (key === undefined) throw new Error(`no search parameter key for ${type}.${code}`);
    return key;
  });
  return { add: (rid, sandbox, resource) => builder.add(rid, sandbox, resource), take: () => builder.take() };
}
