// What a session changed: every resource it created, updated or deleted since its episode began (after the
// fixture), with the version visible before the first change and the version after the last. Derived from the
// sandbox's resource_history rows; "before" comes from the layers below (fixture rows or the base).
import type { Resource } from '@medplum/fhirtypes';
import type { Statement } from 'better-sqlite3';
import type { Repository } from '../../resources/storage/repository.ts';
import { HISTORY_JSON_SQL } from '../../resources/storage/store.ts';
import type { ChangeAction, ResourceChange } from '../../contracts/gym-api.ts';

type HistoryRow = { type: string; id: string; version: number; last_updated: string; deleted: number; json: string | null };

const statements = new WeakMap<object, { rows: Statement<[string, number], HistoryRow>; watermark: Statement<[string], { w: number | null }> }>();

function prepared(repo: Repository) {
  const db = repo.store.db;
  let found = statements.get(db);
  if (!found) {
    found = {
      rows: db.prepare<[string, number], HistoryRow>(
        `SELECT h.type, h.id, h.version, h.last_updated, h.deleted, ${HISTORY_JSON_SQL} AS json
         FROM resource_history h WHERE h.sandbox = ? AND h.rowid > ? ORDER BY h.rowid`),
      watermark: db.prepare<[string], { w: number | null }>('SELECT max(rowid) AS w FROM resource_history WHERE sandbox = ?'),
    };
    statements.set(db, found);
  }
  return found;
}

/**
 * The history position after which writes belong to the episode (read after applying a fixture). Per sandbox: the
 * sandbox's own newest row stays in place until the sandbox is cleared, so later rows always get larger rowids.
 */
export function historyWatermark(repo: Repository): number {
  return prepared(repo).watermark.get(repo.sandbox.name)?.w ?? 0;
}

export function sessionChanges(repo: Repository, afterWatermark: number): ResourceChange[] {
  const byResource = new Map<string, HistoryRow[]>();
  for (const row of prepared(repo).rows.all(repo.sandbox.name, afterWatermark)) {
    const key = `${row.type}/${row.id}`;
    const rows = byResource.get(key);
    if (rows) rows.push(row);
    else byResource.set(key, [row]);
  }
  const changes: ResourceChange[] = [];
  for (const rows of byResource.values()) {
    const first = rows[0];
    const last = rows[rows.length - 1];
    const previous = first.version > 1 ? repo.version(first.type, first.id, first.version - 1) : undefined;
    const before = previous && !previous.deleted && previous.json ? (JSON.parse(previous.json) as Resource) : null;
    const after = last.deleted === 0 && last.json ? (JSON.parse(last.json) as Resource) : null;
    changes.push({
      type: first.type,
      id: first.id,
      action: before ? (after ? 'updated' : 'deleted') : after ? 'created' : 'created-then-deleted',
      before,
      after,
      versions: rows.map((r) => ({ version: r.version, lastUpdated: r.last_updated, deleted: r.deleted === 1 })),
    });
  }
  return changes;
}
