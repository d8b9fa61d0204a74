// SQL on FHIR (v2) helpers for the population tasks' view-based solutions: a ViewDefinition built from a column
// list, run over the whole session with `ViewDefinition/$run`.
import type { FhirClient } from '../../contracts/fhir-client.ts';

/** A column: [name, FHIRPath, optional SQL on FHIR type such as 'decimal']. */
export type ViewColumn = [name: string, path: string, type?: string];

/** A flat ViewDefinition: one select of `columns`, rows kept where every `where` path is true. */
export function viewDefinition(name: string, resource: string, columns: ViewColumn[], where: string[] = []) {
  return {
    resourceType: 'ViewDefinition', name, resource, status: 'active',
    select: [{ column: columns.map(([n, path, type]) => ({ name: n, path, ...(type ? { type } : {}) })) }],
    where: where.map((path) => ({ path })),
  };
}

/** Rows of a ViewDefinition run over the whole session (`ViewDefinition/$run`, streamed, no SQL time limit). */
export function runView<T>(fhir: FhirClient, definition: unknown): Promise<T[]> {
  return fhir.operation<T[]>('ViewDefinition/$run', { resourceType: 'Parameters', parameter: [{ name: 'viewResource', resource: definition as never }] });
}
