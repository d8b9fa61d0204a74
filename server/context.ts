// Server-wide services every interaction may use, built once in app.ts and passed in explicitly.
import type { Store } from '../resources/storage/store.ts';
import type { SearchService } from '../resources/search/service.ts';
import type { OperationRegistry } from './operations/registry.ts';

export interface ServerSettings {
  /** Reject writes that reference resources this server does not hold (HAPI's default). */
  enforceReferentialIntegrity: boolean;
  /** Largest page a search or history returns. */
  maxPageSize: number;
  defaultPageSize: number;
}

export const defaultSettings: ServerSettings = {
  enforceReferentialIntegrity: true,
  maxPageSize: 10000,
  defaultPageSize: 50,
};

export interface ServerContext {
  store: Store;
  settings: ServerSettings;
  search: SearchService;
  operations: OperationRegistry;
}
