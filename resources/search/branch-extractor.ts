// A SearchParameter expression branch (`Observation.subject`, `(Observation.value as Quantity)`,
// `X.telecom.where(system='phone')`, `X.subject.where(resolve() is Patient)`) as a function from a resource to its
// typed values. Most R4 branches are inside the fast path's subset (resources/fhirpath/fast-path.ts); the rest go
// to fhirpath.js with the R4 model, `resolve() is T` rewritten as a test on the reference string, since resolve()
// would need to fetch the target.
import fhirpath from 'fhirpath';
import r4model from 'fhirpath/fhir-context/r4';
import { compileTypedPath, typedPathRoots, type TypedValue } from '../fhirpath/fast-path.ts';

export type Extractor = (resource: Record<string, unknown>) => TypedValue[];

/** Compile one branch (`Type.path...`) for resources of `resourceType`. */
export function compileBranch(branch: string, resourceType: string): Extractor {
  return compileTypedPath(branch, resourceType) ?? compileWithFhirpath(branch);
}

/** The top-level keys a branch reads (see typedPathRoots); undefined when any key may matter. */
export const branchRoots = typedPathRoots;

function compileWithFhirpath(branch: string): Extractor {
  const rewritten = branch.replace(/\.where\(resolve\(\) is ([A-Z][A-Za-z]+)\)/g, ".where(reference.startsWith('$1/') or reference.contains('/$1/'))");
  let fn: ((resource: unknown) => unknown[]) | undefined;
  try {
    fn = fhirpath.compile(rewritten, r4model as never) as unknown as (resource: unknown) => unknown[];
  } catch {
    return () => [];
  }
  return (resource) => {
    try {
      return (fn!(resource) ?? []).map((value) => ({ value, type: '' }));
    } catch {
      return [];
    }
  };
}
