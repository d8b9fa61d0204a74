// The agent's tools, defined once (name, description, JSON Schema parameters) and rendered for each consumer:
// OpenAI function calling, Anthropic tool use, and MCP (server/gym/mcp.ts). Tools owned by other modules (SQL on
// FHIR, evidence) are defined there as data and listed here, so this list is still the one source.
import { runViewTool } from '../operations/view-run.ts';
import { sqlQueryTool } from '../operations/sql-query.ts';
import { evidenceSearchTool } from '../../resources/evidence/tool.ts';

export type JsonSchema = Record<string, unknown>;

export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: JsonSchema;
}

const resourceType: JsonSchema = { type: 'string', pattern: '^[A-Z][A-Za-z]+$', description: 'FHIR resource type, e.g. Patient, Observation, MedicationRequest' };
const id: JsonSchema = { type: 'string', pattern: '^[A-Za-z0-9\\-.]{1,64}$', description: 'The logical id of the resource' };
const resource: JsonSchema = { type: 'object', description: 'The FHIR R4 resource as JSON, with resourceType', additionalProperties: true };
const searchParams: JsonSchema = {
  type: 'object',
  description: 'FHIR search parameters by name, e.g. {"patient": "123", "code": "http://loinc.org|2823-3", "_sort": "-date", "_count": 20}. ' +
    'A list repeats the parameter (AND), e.g. {"date": ["ge2023-01-01", "le2023-06-30"]}; a comma inside a value means OR.',
  additionalProperties: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'array', items: { type: ['string', 'number', 'boolean'] } }] },
};

function objectSchema(properties: Record<string, JsonSchema>, required: string[]): JsonSchema {
  return { type: 'object', properties, required, additionalProperties: false };
}

export const gymTools: readonly ToolDefinition[] = [
  {
    name: 'fhir_search',
    description: 'Search FHIR resources of one type in the patient chart (FHIR R4 search). Returns {total, resources, included?, next?}; ' +
      'pass `next` back as params to get the following page.',
    parameters: objectSchema({ resourceType, params: searchParams }, ['resourceType']),
  },
  {
    name: 'fhir_read',
    description: 'Read one FHIR resource by type and id.',
    parameters: objectSchema({ resourceType, id }, ['resourceType', 'id']),
  },
  {
    name: 'fhir_create',
    description: 'Create a FHIR resource (e.g. a MedicationRequest or ServiceRequest). The server assigns the id; returns the stored resource.',
    parameters: objectSchema({ resourceType, resource }, ['resourceType', 'resource']),
  },
  {
    name: 'fhir_update',
    description: 'Replace a FHIR resource with a new version (the whole resource, including its id). Returns the stored resource.',
    parameters: objectSchema({ resourceType, id, resource }, ['resourceType', 'id', 'resource']),
  },
  {
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
  {
    name: 'fhir_delete',
    description: 'Delete a FHIR resource by type and id.',
    parameters: objectSchema({ resourceType, id }, ['resourceType', 'id']),
  },
  {
    name: 'fhir_history',
    description: 'The version history of one resource (type and id), or of every resource of a type (type only), newest first.',
    parameters: objectSchema({
      resourceType, id,
      params: { type: 'object', description: 'History parameters, e.g. {"_count": 10, "_since": "2023-01-01T00:00:00Z"}', additionalProperties: { type: ['string', 'number'] } },
    }, ['resourceType']),
  },
  {
    name: 'terminology_search',
    description: 'Find codes by words before searching the chart by code: a word-prefix search over the displays and synonyms of ' +
      'LOINC, SNOMED CT, ICD-10-CM, RxNorm, CVX and the local flowsheet codes (ValueSet/$expand with a filter), best matches first. ' +
      'Returns {total, matches: [{system, code, display}]}. Charts mix standard and local codes: search by every code you find, ' +
      'e.g. code "http://loinc.org|2823-3,http://ehr-gym.example/fhir/CodeSystem/flowsheet|K".',
    parameters: objectSchema({
      query: { type: 'string', minLength: 1, maxLength: 200, description: 'Words to look for, e.g. "potassium", "hemoglobin a1c", "metformin 500"' },
      system: { type: 'string', minLength: 1, description: 'Only this code system, e.g. http://loinc.org, http://snomed.info/sct, http://www.nlm.nih.gov/research/umls/rxnorm' },
      count: { type: 'integer', minimum: 1, maximum: 100, description: 'How many matches to return (default 10)' },
    }, ['query']),
  },
  {
    name: 'terminology_lookup',
    description: 'Look one code up (CodeSystem/$lookup): its display, synonyms and properties (LOINC component/system/scale, ' +
      'RxNorm ingredients, parents and children). Returns {system, code, name, display, synonyms, properties}.',
    parameters: objectSchema({
      system: { type: 'string', minLength: 1, description: 'Code system URL, e.g. http://loinc.org' },
      code: { type: 'string', minLength: 1, description: 'The code, e.g. 2823-3' },
    }, ['system', 'code']),
  },
  runViewTool as ToolDefinition,
  sqlQueryTool as ToolDefinition,
  // The executor renders $evidence's Bundle compactly; the description says what the model gets.
  { ...evidenceSearchTool, description: evidenceSearchTool.description.replace(/Returns a FHIR searchset Bundle/, 'Returns {total, items: [{score, reason, resource}]}') },
  {
    name: 'finish',
    description: 'Submit the final answer and end the episode. Call once, when the task is done.',
    parameters: objectSchema({ answer: { type: 'string', description: 'The final answer or summary for the task' } }, ['answer']),
  },
];

export type ToolFormat = 'openai' | 'anthropic' | 'mcp' | 'neutral';
export const toolFormats: readonly ToolFormat[] = ['openai', 'anthropic', 'mcp', 'neutral'];

/** OpenAI Chat Completions / Responses function-calling tool. */
export function toOpenAiTool(tool: ToolDefinition) {
  return { type: 'function' as const, function: { name: tool.name, description: tool.description, parameters: tool.parameters } };
}

/** Anthropic Messages API tool. */
export function toAnthropicTool(tool: ToolDefinition) {
  return { name: tool.name, description: tool.description, input_schema: tool.parameters };
}

/** MCP tools/list entry. */
export function toMcpTool(tool: ToolDefinition) {
  return { name: tool.name, description: tool.description, inputSchema: tool.parameters as { type: 'object'; [key: string]: unknown } };
}

export function renderTools(format: ToolFormat, tools: readonly ToolDefinition[] = gymTools): unknown[] {
  switch (format) {
    case 'openai': return tools.map(toOpenAiTool);
    case 'anthropic': return tools.map(toAnthropicTool);
    case 'mcp': return tools.map(toMcpTool);
    case 'neutral': return tools.map((t) => ({ ...t }));
  }
}

export function findTool(name: string): ToolDefinition | undefined {
  return gymTools.find((t) => t.name === name);
}
