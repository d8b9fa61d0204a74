// What a reference points at on this server, for the operations that follow references ($run's patient filter,
// $sqlquery-run's patient). The Reference elements of a resource and the grammar of a `reference` string are defined
// once, in resources/validation/references.ts; this module only adds "is it local, and which Type/id".
import { parseReference } from './validation/references.ts';
import { isKnownResourceType } from './validation/validate.ts';

export { resourceReferenceSites as resourceReferences } from './validation/validate.ts';

/**
 * The local target of a reference, if it points at this server: `Type/id`, `Type/id/_history/n`, or an absolute URL
 * under `baseUrl`. Contained (`#x`), urn:, conditional and foreign absolute references have no local target.
 */
export function localTarget(reference: string, baseUrl: string): { type: string; id: string } | undefined {
  const relative = /^https?:\/\//.test(reference) ? (reference.startsWith(`${baseUrl}/`) ? reference.slice(baseUrl.length + 1) : undefined) : reference;
  if (relative === undefined) return undefined;
  const parsed = parseReference(relative, isKnownResourceType);
  return parsed.kind === 'relative' ? { type: parsed.type, id: parsed.id } : undefined;
}
