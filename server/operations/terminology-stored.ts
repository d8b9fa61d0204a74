// The terminology service a request's operations use: the built-in one (req.context.terminology), with the
// CodeSystem, ValueSet and ConceptMap resources the request's sandbox wrote itself layered over it (issue 14 item 5:
// one source of truth, so `POST CodeSystem` then `$lookup` works in that session and in no other). The base layer's
// terminology resources are the built-in index written out by the generator, so only the sandbox's own rows count.
import { createHash } from 'node:crypto';
import type { CodeSystem, ConceptMap, Resource, ValueSet } from '@medplum/fhirtypes';
import type { FhirRequest } from '../fhir-request.ts';
import { TerminologyService } from '../../resources/terminology/service.ts';
import { LayeredTerminologyIndex, type StoredTerminology } from '../../resources/terminology/layered-index.ts';
import type { Store } from '../../resources/storage/store.ts';

const TYPES = ['CodeSystem', 'ValueSet', 'ConceptMap'] as const;

// Per store and sandbox, the layered service for one set of stored versions: a session's terminology changes rarely
// and the operations are called often, so the service (and its expansion cache) lives until the next write.
const cache = new WeakMap<Store, Map<string, { key: string; service: TerminologyService }>>();
const MAX_CACHED_SANDBOXES = 16;

export function terminologyOf(req: FhirRequest): TerminologyService {
  const builtIn = req.context.terminology;
  const { store, sandbox } = req.repo;
  // The base layer read directly holds only the built-in terminology.
  if (sandbox.layers.length < 2) return builtIn;
  const texts = req.repo.ownLive(TYPES);
  if (texts.length === 0) return builtIn;
  // Keyed by content, not by version numbers: a reset sandbox may write the same id and version again.
  const hash = createHash('sha256');
  for (const json of texts) hash.update(json).update('\0');
  const key = hash.digest('hex');
  let perStore = cache.get(store);
  if (!perStore) cache.set(store, perStore = new Map());
  const hit = perStore.get(sandbox.name);
  if (hit && hit.key === key) return hit.service;

  const stored: StoredTerminology = { codeSystems: [], valueSets: [], conceptMaps: [] };
  for (const json of texts) {
    const resource = JSON.parse(json) as Resource;
    if (resource.resourceType === 'CodeSystem') stored.codeSystems.push(resource as CodeSystem);
    else if (resource.resourceType === 'ValueSet') stored.valueSets.push(resource as ValueSet);
    else if (resource.resourceType === 'ConceptMap') stored.conceptMaps.push(resource as ConceptMap);
  }
  const service = new TerminologyService(new LayeredTerminologyIndex(builtIn.index, stored));
  perStore.delete(sandbox.name);
  if (perStore.size >= MAX_CACHED_SANDBOXES) perStore.delete(perStore.keys().next().value!);
  perStore.set(sandbox.name, { key, service });
  return service;
}
