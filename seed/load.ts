// Loading a generated population into layer 'base' through the same write path as HTTP (Repository.write, so the
// store's indexers write the same index rows), with every resource validated first: any issue fails the load.
import type { Resource } from '@medplum/fhirtypes';
import { Repository } from '../resources/storage/repository.ts';
import { BASE_LAYER, makeSandbox, virtualClock } from '../resources/storage/sandbox.ts';
import type { Store } from '../resources/storage/store.ts';
import { validateResource } from '../resources/validation/validate.ts';
import type { GeneratedBatch } from './generate.ts';

export class InvalidSeedResourceError extends Error {
  override name = 'InvalidSeedResourceError';
}

export interface LoadOptions {
  /** The dataset reference date: the base layer's clock starts there (lastUpdated is deterministic). */
  referenceDate: string;
  /** Resources per SQLite transaction. */
  batchSize?: number;
  /** Called after each generated batch (patient) is written. */
  onBatch?(batch: GeneratedBatch): void;
}

/** A repository on the base layer with a fixed clock and deterministic server ids. */
export function baseRepository(store: Store, referenceDate: string): Repository {
  let n = 0;
  return new Repository(store, makeSandbox(BASE_LAYER, { clock: virtualClock(new Date(referenceDate)), newId: () => `seed-${++n}` }));
}

export function assertValid(resource: Resource): void {
  const issues = validateResource(resource);
  if (issues.length > 0) {
    const detail = issues.slice(0, 5).map((i) => `${i.expression?.join(',') ?? ''}: ${i.diagnostics}`).join('; ');
    throw new InvalidSeedResourceError(`generated ${resource.resourceType}/${resource.id} is invalid: ${detail}`);
  }
}

/** Validate and write every resource; returns the number written. */
export function loadPopulation(store: Store, batches: Iterable<GeneratedBatch>, options: LoadOptions): number {
  const repo = baseRepository(store, options.referenceDate);
  const batchSize = options.batchSize ?? 5000;
  let pending: GeneratedBatch[] = [];
  let pendingCount = 0;
  let written = 0;
  const flush = () => {
    store.transaction(() => {
      for (const batch of pending) {
        for (const resource of batch.resources) repo.write(resource as Resource & { id: string });
      }
    });
    for (const batch of pending) options.onBatch?.(batch);
    written += pendingCount;
    pending = [];
    pendingCount = 0;
  };
  for (const batch of batches) {
    for (const resource of batch.resources) assertValid(resource);
    pending.push(batch);
    pendingCount += batch.resources.length;
    if (pendingCount >= batchSize) flush();
  }
  if (pending.length) flush();
  return written;
}
