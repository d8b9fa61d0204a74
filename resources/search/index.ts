// PLACEHOLDER search service: replaced by the real engine.
import type { SearchService } from './service.ts';
import { notSupported } from '../outcome.ts';

export function createSearchService(): SearchService {
  return {
    indexer: { schema: '', write() {}, clearSandbox() {} },
    search() { throw notSupported('search is not implemented yet'); },
    match() { throw notSupported('search is not implemented yet'); },
    capabilities() { return []; },
  };
}
