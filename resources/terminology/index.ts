// Public face of the terminology module: one lazily built service per process, the resources for the base layer,
// and pure lookup functions the search engine calls for token modifiers (:in, :not-in, :below, :above, :text).
import type { Resource } from '@medplum/fhirtypes';
import { invalidParameter } from '../outcome.ts';
import { buildTerminologyIndex, defaultSources } from './load.ts';
import { terminologyResourcesOf } from './resources.ts';
import { TerminologyService } from './service.ts';
import { ExpansionError } from './expand.ts';
import { warmUp } from '../deadline.ts';

export { TerminologyService } from './service.ts';
export { buildTerminologyIndex, defaultSources, readSupplement } from './load.ts';
export type { TerminologyIndex } from './terminology-index.ts';

let defaultService: TerminologyService | undefined;
let buildMillis = 0;

/** The service over every source this repository holds, built on first use (HL7 + seed tables + supplement). */
export function terminology(): TerminologyService {
  if (!defaultService) {
    const started = performance.now();
    defaultService = warmUp(() => new TerminologyService(buildTerminologyIndex(defaultSources())));
    buildMillis = performance.now() - started;
  }
  return defaultService;
}

/** How long building the default index took (0 until it is built). */
export function terminologyBuildMillis(): number {
  return buildMillis;
}

/** Every CodeSystem, ValueSet and ConceptMap, with ids unique per type, for the generator to write into 'base'. */
export function terminologyResources(): Iterable<Resource> {
  return terminologyResourcesOf(terminology().index);
}

/**
 * `:in` / `:not-in`: the codes of a value set (registered or implicit, e.g. `http://loinc.org/vs`) as `system|code`.
 * An unknown or unexpandable value set is a 400 (throws FhirError).
 */
export function expandValueSetCodes(url: string): Set<string> {
  const service = terminology();
  const vs = service.index.valueSet(url)?.resource ?? undefined;
  try {
    const items = vs ? service.expander.expand(vs) : service.expander.expandUrl(url);
    return new Set(items.map((i) => `${i.system}|${i.code}`));
  } catch (err) {
    if (err instanceof ExpansionError) throw invalidParameter(`Cannot use ValueSet ${url}: ${err.message}`);
    throw err;
  }
}

/** `:below`: codes subsumed by `code` in `system` (is-a), excluding `code` itself. Unknown system or code: empty. */
export function descendantsOf(system: string, code: string): Set<string> {
  const service = terminology();
  const concept = service.index.concept(system, code);
  return concept ? service.index.descendants(system.split('|')[0], concept.code) : new Set();
}

/** `:above`: codes that subsume `code` in `system` (is-a), excluding `code` itself. Unknown system or code: empty. */
export function ancestorsOf(system: string, code: string): Set<string> {
  const service = terminology();
  const concept = service.index.concept(system, code);
  return concept ? service.index.ancestors(system.split('|')[0], concept.code) : new Set();
}

/** `:text` on a token: every word of `text` is a word prefix in the display or a synonym of `system|code`. */
export function textMatches(system: string, code: string, text: string): boolean {
  return terminology().textMatches(system, code, text);
}

/** Codes of `system` (all systems when omitted) whose display or synonyms match `text`, as `system|code`. */
export function codesMatchingText(text: string, system?: string): Set<string> {
  const service = terminology();
  const out = new Set<string>();
  const systems = system ? [service.index.codeSystem(system)].filter((s) => s !== undefined) : [...service.index.codeSystems.values()];
  for (const cs of systems) for (const concept of cs.concepts.values()) if (service.textMatches(cs.url, concept.code, text)) out.add(`${cs.url}|${concept.code}`);
  return out;
}
