// The SQL on FHIR tools: run one ViewDefinition ($run) and answer a population question with read-only SQL over views
// ($sqlquery-run). The operations (server/operations/view-run.ts, sql-query.ts) build their Parameters bodies.
import type { AgentTool } from './tool.ts';
import { rawBody } from './render.ts';
import { runViewParameters } from '../operations/view-run.ts';
import { SQL_LIMITS, sqlQueryParameters } from '../operations/sql-query.ts';

const viewSchema = {
  type: 'object',
  additionalProperties: true,
  description: 'A SQL on FHIR v2 ViewDefinition, e.g. {"resource": "Observation", "select": [{"column": [' +
    '{"name": "id", "path": "getResourceKey()"}, {"name": "patient", "path": "subject.getReferenceKey(Patient)"}, ' +
    '{"name": "code", "path": "code.coding.first().code"}, {"name": "value", "path": "value.ofType(Quantity).value"}, ' +
    '{"name": "date", "path": "effective.ofType(dateTime)"}]}], "where": [{"path": "status = \'final\'"}]}. ' +
    'forEach / forEachOrNull unnest a repeating element into rows; constant entries become %name.',
};

export const runView: AgentTool = {
  definition: {
    name: 'run_view',
    description: 'Run a SQL on FHIR ViewDefinition over the whole patient population in this session and return its rows ' +
      '(one row per resource, or per element with forEach). Use for population questions; optional patient restricts to one patient.',
    parameters: {
      type: 'object',
      properties: {
        view: viewSchema,
        patient: { type: 'string', description: 'Only this patient\'s resources, e.g. "Patient/123"' },
        limit: { type: 'integer', minimum: 1, description: 'Return at most this many rows' },
        format: { type: 'string', enum: ['json', 'csv'], description: 'Row format (default json)' },
      },
      required: ['view'],
      additionalProperties: false,
    },
  },
  readOnly: true,
  run: async ({ http, fhirBase, options }, args) =>
    rawBody(await http({ method: 'POST', path: `${fhirBase}/ViewDefinition/$run`, body: runViewParameters(args as Parameters<typeof runViewParameters>[0]) }), options),
};

export const sqlQuery: AgentTool = {
  definition: {
    name: 'sql_query',
    description: 'Answer a population question with one read-only SQLite SELECT over tables you define as SQL on FHIR ' +
      'ViewDefinitions (each view becomes a table named by its `name`, one column per view column; booleans are 0/1). ' +
      `Limits: ${SQL_LIMITS.defaultRows} rows by default (at most ${SQL_LIMITS.maxRows}), ${SQL_LIMITS.defaultTimeoutMs / 1000} s; aggregate in SQL.`,
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'One SELECT or WITH ... SELECT statement (SQLite dialect), e.g. "SELECT count(DISTINCT patient) FROM a1c WHERE value > 9"' },
        views: {
          type: 'array', minItems: 1,
          description: 'ViewDefinitions to materialize as tables, each with a `name`, e.g. {"name": "a1c", "resource": "Observation", "select": [{"column": [{"name": "patient", "path": "subject.getReferenceKey(Patient)"}, {"name": "value", "path": "value.ofType(Quantity).value"}]}], "where": [{"path": "code.coding.where(system = \'http://loinc.org\' and code = \'4548-4\').exists()"}]}',
          items: { type: 'object', additionalProperties: true },
        },
        format: { type: 'string', enum: ['json', 'csv'], description: 'Result format (default json)' },
      },
      required: ['query', 'views'],
      additionalProperties: false,
    },
  },
  readOnly: true,
  run: async ({ http, fhirBase, options }, args) =>
    rawBody(await http({ method: 'POST', path: `${fhirBase}/$sqlquery-run`, body: sqlQueryParameters(args as Parameters<typeof sqlQueryParameters>[0]) }), options),
};
