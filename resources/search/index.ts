// The search engine behind the SearchService contract: registry (data) -> write-time indexer -> parse/plan/run.
import type { SearchService } from './service.ts';
import { defaultRegistry } from './registry.ts';
import { createIndexer } from './indexer.ts';
import { SearchEngine } from './engine.ts';
import type { ResourceIndexer } from '../storage/store.ts';
import type { TerminologyService } from '../terminology/service.ts';

/** `terminology` answers the token modifiers :in, :not-in, :below, :above and :text. */
export function createSearchService(terminology: TerminologyService): SearchService {
  const registry = defaultRegistry();
  const engine = new SearchEngine(registry, terminology);
  const indexer = createIndexer(registry);
  return {
    indexer,
    search: (ctx, type, query) => engine.search(ctx, type, query),
    match: (repo, type, query) => engine.match(repo, type, query),
    everything: (ctx, patientId, query) => engine.everything(ctx, patientId, query),
    capabilities: (type) =>
      registry.forType(type)
        .filter((p) => p.type !== 'composite' || p.components)
        .map((p) => ({ name: p.code, type: p.type, definition: p.url, ...(p.description ? { documentation: p.description } : {}) }))
        .concat(
          { name: '_id', type: 'token', definition: 'http://hl7.org/fhir/SearchParameter/Resource-id' },
          { name: '_lastUpdated', type: 'date', definition: 'http://hl7.org/fhir/SearchParameter/Resource-lastUpdated' },
          { name: '_text', type: 'string', definition: 'http://hl7.org/fhir/SearchParameter/DomainResource-text' },
          { name: '_content', type: 'string', definition: 'http://hl7.org/fhir/SearchParameter/Resource-content' },
        )
        .filter((p, i, all) => all.findIndex((q) => q.name === p.name) === i),
  };
}

/** The write-time indexer alone, for a store that is loaded or opened but not searched (the seed, the CLI). */
export function createSearchIndexer(): ResourceIndexer {
  return createIndexer(defaultRegistry());
}
