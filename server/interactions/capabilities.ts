// capabilities: GET [base]/metadata (FHIR R4 3.1.0.12). Generated from the registries the server runs on -
// resource types from the validator, search parameters from the search registry, operations from theirs.
import type { CapabilityStatement, CapabilityStatementRestResource } from '@medplum/fhirtypes';
import type { FhirRequest, FhirResponse } from '../fhir-request.ts';
import { resourceTypes } from '../../resources/validation/validate.ts';
import { queryValue } from '../fhir-request.ts';

const TYPE_INTERACTIONS = ['read', 'vread', 'update', 'patch', 'delete', 'history-instance', 'history-type', 'create', 'search-type'] as const;

export function capabilities(req: FhirRequest): FhirResponse {
  const { search, operations } = req.context;
  const resource: CapabilityStatementRestResource[] = resourceTypes.map((type: string) => ({
    type: type as CapabilityStatementRestResource['type'],
    interaction: TYPE_INTERACTIONS.map((code) => ({ code })),
    versioning: 'versioned-update',
    readHistory: true,
    updateCreate: true,
    conditionalCreate: true,
    conditionalRead: 'full-support',
    conditionalUpdate: true,
    conditionalDelete: 'single',
    referencePolicy: ['literal', 'enforced', 'local'],
    searchParam: search.capabilities(type).map((p) => ({
      name: p.name,
      type: p.type as 'string',
      ...(p.definition ? { definition: p.definition } : {}),
      ...(p.documentation ? { documentation: p.documentation } : {}),
    })),
    operation: operations
      .all()
      .filter((op) => !op.levels.every((l) => l === 'system') && (!op.types || op.types.includes(type)))
      .map((op) => ({ name: op.name, definition: `${req.baseUrl}/OperationDefinition/${op.name}` })),
  }));
  const statement: CapabilityStatement = {
    resourceType: 'CapabilityStatement',
    status: 'active',
    date: req.repo.now.toISOString(),
    kind: 'instance',
    software: { name: 'ehr-gym', version: '0.1.0' },
    implementation: { description: 'ehr-gym synthetic EHR', url: req.baseUrl },
    fhirVersion: '4.0.1',
    format: ['application/fhir+json', 'json'],
    patchFormat: ['application/json-patch+json'],
    rest: [
      {
        mode: 'server',
        resource,
        interaction: [{ code: 'transaction' }, { code: 'batch' }, { code: 'search-system' }, { code: 'history-system' }],
        operation: operations
          .all()
          .filter((op) => op.levels.includes('system'))
          .map((op) => ({ name: op.name, definition: `${req.baseUrl}/OperationDefinition/${op.name}` })),
      },
    ],
  };
  // `_summary=true` asks for the statement without the (large) per-type detail.
  if (queryValue(req.query, '_summary') === 'true') statement.rest![0].resource = resource.map((r) => ({ type: r.type }));
  return { status: 200, body: statement };
}
