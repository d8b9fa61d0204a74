// Resource types beyond FHIR R4 (the list is data: extra-resource-types.json), each validated by its own structural
// check rather than the R4 JSON Schema, which does not describe them. A check throws a FhirError naming the element.
import { readFileSync } from 'node:fs';
import type { OperationOutcomeIssue } from '@medplum/fhirtypes';
import { FhirError } from '../outcome.ts';
import { compileView } from '../views/compile-view.ts';

export interface ExtraResourceType {
  type: string;
  /** Canonical URL of the type's StructureDefinition. */
  definition: string;
  description?: string;
}

/** The check of each extra type: everything it needs to be usable, e.g. a ViewDefinition's FHIRPath compiles. */
const CHECKS: Record<string, (resource: Record<string, unknown>) => void> = {
  ViewDefinition: (resource) => void compileView(resource),
};

const listed = (JSON.parse(readFileSync(new URL('./extra-resource-types.json', import.meta.url), 'utf8')) as { types: ExtraResourceType[] }).types;
for (const { type } of listed) if (!CHECKS[type]) throw new Error(`extra-resource-types.json lists ${type}, which has no check`);

export const EXTRA_RESOURCE_TYPES: readonly ExtraResourceType[] = Object.freeze(listed);

export function isExtraResourceType(type: string): boolean {
  return Object.hasOwn(CHECKS, type) && listed.some((t) => t.type === type);
}

/** Issues of an extra-type resource at `root` (its own type name at top level, e.g. `Bundle.entry[0].resource` nested). */
export function validateExtraType(resource: Record<string, unknown>, type: string, root: string): OperationOutcomeIssue[] {
  try {
    CHECKS[type](resource);
    return [];
  } catch (err) {
    if (!(err instanceof FhirError)) throw err;
    const reroot = (expr: string) => (expr === type || expr.startsWith(`${type}.`) || expr.startsWith(`${type}[`) ? root + expr.slice(type.length) : expr);
    return (err.outcome.issue ?? []).map((i) => ({
      ...i,
      severity: 'error' as const,
      ...(i.expression ? { expression: i.expression.map(reroot) } : {}),
    }));
  }
}
