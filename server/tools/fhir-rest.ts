// The FHIR REST tools: search, read, create, update, patch, delete and history of one resource type, each one HTTP
// call on the session's FHIR base (so the server decides, validates and audits exactly as for any client).
import type { AgentTool, JsonSchema } from './tool.ts';
import { objectSchema } from './tool.ts';
import { compactHistory, compactSearchset, queryString, render } from './render.ts';

const resourceType: JsonSchema = { type: 'string', pattern: '^[A-Z][A-Za-z]+$', description: 'FHIR resource type, e.g. Patient, Observation, MedicationRequest' };
const id: JsonSchema = { type: 'string', pattern: '^[A-Za-z0-9\\-.]{1,64}$', description: 'The logical id of the resource' };
const resource: JsonSchema = { type: 'object', description: 'The FHIR R4 resource as JSON, with resourceType', additionalProperties: true };
const searchParams: JsonSchema = {
  type: 'object',
  description: 'FHIR search parameters by name, e.g. {"patient": "123", "code": "http://loinc.org|2823-3", "_sort": "-date", "_count": 20}. ' +
    'A list repeats the parameter (AND), e.g. {"date": ["ge2023-01-01", "le2023-06-30"]}; a comma inside a value means OR.',
  additionalProperties: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'array', items: { type: ['string', 'number', 'boolean'] } }] },
};

const typePath = (base: string, args: Record<string, unknown>): string => `${base}/${args.resourceType as string}`;
const instancePath = (base: string, args: Record<string, unknown>): string => `${typePath(base, args)}/${args.id as string}`;

export const fhirSearch: AgentTool = {
  definition: {
    name: 'fhir_search',
    description: 'Search FHIR resources of one type in the patient chart (FHIR R4 search). Returns {total, resources, included?, next?}; ' +
      'pass `next` back as params to get the following page.',
    parameters: objectSchema({ resourceType, params: searchParams }, ['resourceType']),
  },
  readOnly: true,
  run: async ({ http, fhirBase, options }, args) =>
    render(await http({ method: 'GET', path: `${typePath(fhirBase, args)}${queryString(args.params)}` }), options, compactSearchset),
};

export const fhirRead: AgentTool = {
  definition: { name: 'fhir_read', description: 'Read one FHIR resource by type and id.', parameters: objectSchema({ resourceType, id }, ['resourceType', 'id']) },
  readOnly: true,
  run: async ({ http, fhirBase, options }, args) => render(await http({ method: 'GET', path: instancePath(fhirBase, args) }), options),
};

export const fhirCreate: AgentTool = {
  definition: {
    name: 'fhir_create',
    description: 'Create a FHIR resource (e.g. a MedicationRequest or ServiceRequest). The server assigns the id; returns the stored resource.',
    parameters: objectSchema({ resourceType, resource }, ['resourceType', 'resource']),
  },
  readOnly: false,
  run: async ({ http, fhirBase, options }, args) => render(await http({ method: 'POST', path: typePath(fhirBase, args), body: args.resource }), options),
};

export const fhirUpdate: AgentTool = {
  definition: {
    name: 'fhir_update',
    description: 'Replace a FHIR resource with a new version (the whole resource, including its id). Returns the stored resource.',
    parameters: objectSchema({ resourceType, id, resource }, ['resourceType', 'id', 'resource']),
  },
  readOnly: false,
  run: async ({ http, fhirBase, options }, args) => render(await http({ method: 'PUT', path: instancePath(fhirBase, args), body: args.resource }), options),
};

export const fhirPatch: AgentTool = {
  definition: {
    name: 'fhir_patch',
    description: 'Change part of a FHIR resource with a JSON Patch (RFC 6902), e.g. [{"op": "replace", "path": "/status", "value": "stopped"}].',
    parameters: objectSchema({
      resourceType, id,
      patch: {
        type: 'array', description: 'JSON Patch operations',
        items: {
          type: 'object',
          properties: { op: { type: 'string', enum: ['add', 'remove', 'replace', 'move', 'copy', 'test'] }, path: { type: 'string' }, from: { type: 'string' }, value: {} },
          required: ['op', 'path'],
        },
      },
    }, ['resourceType', 'id', 'patch']),
  },
  readOnly: false,
  run: async ({ http, fhirBase, options }, args) => render(await http({ method: 'PATCH', path: instancePath(fhirBase, args), body: args.patch }), options),
};

export const fhirDelete: AgentTool = {
  definition: { name: 'fhir_delete', description: 'Delete a FHIR resource by type and id.', parameters: objectSchema({ resourceType, id }, ['resourceType', 'id']) },
  readOnly: false,
  run: async ({ http, fhirBase, options }, args) => {
    const response = await http({ method: 'DELETE', path: instancePath(fhirBase, args) });
    if (response.status < 300) return { text: JSON.stringify({ deleted: `${args.resourceType as string}/${args.id as string}` }), isError: false };
    return render(response, options);
  },
};

export const fhirHistory: AgentTool = {
  definition: {
    name: 'fhir_history',
    description: 'The version history of one resource (type and id), or of every resource of a type (type only), newest first.',
    parameters: objectSchema({
      resourceType, id,
      params: { type: 'object', description: 'History parameters, e.g. {"_count": 10, "_since": "2023-01-01T00:00:00Z"}', additionalProperties: { type: ['string', 'number'] } },
    }, ['resourceType']),
  },
  readOnly: true,
  run: async ({ http, fhirBase, options }, args) => {
    const target = args.id === undefined ? typePath(fhirBase, args) : instancePath(fhirBase, args);
    return render(await http({ method: 'GET', path: `${target}/_history${queryString(args.params)}` }), options, compactHistory);
  },
};
