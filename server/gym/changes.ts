// What a session changed: every resource it created, updated or deleted since its episode began (after the
// fixture), with the version visible before the first change and the version after the last. Derived from the
// sandbox's resource_history rows; "before" comes from the layers below (fixture rows or the base).
import type { Resource } from '@medplum/fhirtypes';
import type { Repository } from '../../resources/storage/repository.ts';
import type { StoredVersion } from '../../resources/storage/store.ts';
import type { ResourceChange } from '../../contracts/gym-api.ts';

/** The write position after which writes belong to the episode (read after applying a fixture). */
export function historyWatermark(repo: Repository): number {
  return repo.writePosition();
}

export function sessionChanges(repo: Repository, afterWatermark: number): ResourceChange[] {
  const byResource = new Map<string, StoredVersion[]>();
  for (const row of repo.writesAfter(afterWatermark)) {
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
    const after = !last.deleted && last.json ? (JSON.parse(last.json) as Resource) : null;
    changes.push({
      type: first.type,
      id: first.id,
      action: before ? (after ? 'updated' : 'deleted') : after ? 'created' : 'created-then-deleted',
      before,
      after,
      versions: rows.map((r) => ({ version: r.version, lastUpdated: r.lastUpdated, deleted: r.deleted })),
    });
  }
  return changes;
}
