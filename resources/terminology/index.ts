// Public face of the terminology module: the service over every source this repository holds, shared by every app
// in the process, and the resources for the base layer. Consumers receive the service as a parameter (the server
// carries it in ServerContext.terminology); nothing here is reached as a hidden global.
import type { Resource } from '@medplum/fhirtypes';
import { buildTerminologyIndex, defaultSources } from './load.ts';
import { terminologyResourcesOf } from './resources.ts';
import { TerminologyService } from './service.ts';
import { warmUp } from '../deadline.ts';

export { TerminologyService } from './service.ts';
export { buildTerminologyIndex, defaultSources, readSupplement } from './load.ts';
export type { TerminologyIndex } from './terminology-index.ts';

let shared: TerminologyService | undefined;
let buildMillis = 0;

/**
 * The service over every source this repository holds (HL7 + seed tables + supplement). One per process: the index
 * takes seconds and hundreds of MB, and tests build many apps in one process, so every `buildApp` (and each caller
 * without a server, such as the seed or a grader) gets this same service. Its index is built on the first call that
 * needs it, as warm-up work charged to no request's time budget (resources/deadline.ts).
 */
export function sharedTerminology(): TerminologyService {
  shared ??= new TerminologyService(() => {
    const started = performance.now();
    const index = warmUp(() => buildTerminologyIndex(defaultSources()));
    buildMillis = performance.now() - started;
    return index;
  });
  return shared;
}

/** How long building the shared index took (0 until it is built). */
export function terminologyBuildMillis(): number {
  return buildMillis;
}

/** Every CodeSystem, ValueSet and ConceptMap of `service`, with ids unique per type, for the generator to write into 'base'. */
export function terminologyResources(service: TerminologyService): Iterable<Resource> {
  return terminologyResourcesOf(service.index);
}
