// Strict-mode tool schemas (server/tools/render.ts): what OpenAI strict function calling and Anthropic strict tool use
// accept - closed objects, every property required, optional ones nullable, no free-form objects, no length/range
// bounds - for every gym tool; and arguments a model writes against them decode back to what the tool's own schema
// accepts, equal to the arguments it would have written without strict mode.
import t from 'tap';
import { Ajv } from 'ajv';
import { agentTools } from '../../../server/tools/index.ts';
import { decodeStrictArguments, strictSchema } from '../../../server/tools/render.ts';

type Schema = Record<string, any>;
const BOUNDS = ['minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minItems', 'maxItems', 'multipleOf'];

/** Every rule strict mode sets, checked at every node; returns the problems found. */
function strictProblems(node: Schema, path: string): string[] {
  const problems: string[] = [];
  if (Object.keys(node).length === 0) return [`${path}: empty schema`];
  for (const b of BOUNDS) if (node[b] !== undefined) problems.push(`${path}: ${b}`);
  const types = Array.isArray(node.type) ? node.type : [node.type];
  if (types.includes('object')) {
    if (node.additionalProperties !== false) problems.push(`${path}: additionalProperties is not false`);
    if (!node.properties) problems.push(`${path}: an object without properties`);
    else {
      if (JSON.stringify(node.required) !== JSON.stringify(Object.keys(node.properties))) problems.push(`${path}: not every property required`);
      for (const [k, v] of Object.entries(node.properties as Record<string, Schema>)) problems.push(...strictProblems(v, `${path}.${k}`));
    }
  }
  if (types.includes('array')) problems.push(...strictProblems(node.items ?? {}, `${path}[]`));
  return problems;
}

/** What a model in strict mode writes for `args`: free-form values as JSON text, absent optionals as null. */
function strictArgs(schema: Schema, args: unknown): unknown {
  const free = (s: Schema) => (s.type === undefined && !s.anyOf && !s.enum) || (s.type === 'object' && !s.properties);
  if (free(schema)) return JSON.stringify(args);
  if (schema.type === 'object') {
    return Object.fromEntries(Object.entries(schema.properties as Record<string, Schema>).map(([k, v]) => [k, (args as any)[k] === undefined ? null : strictArgs(v, (args as any)[k])]));
  }
  if (schema.type === 'array') return (args as unknown[]).map((item) => strictArgs(schema.items, item));
  return args;
}

const view = { resourceType: 'ViewDefinition', name: 'k', status: 'active', resource: 'Observation', select: [{ column: [{ name: 'id', path: 'getResourceKey()' }] }] };
/** Arguments for each tool, valid against its own schema, optional properties given and left out. */
const samples: Record<string, unknown[]> = {
  fhir_search: [{ resourceType: 'Observation', params: { patient: 'p1', date: ['ge2023-01-01', 'le2023-06-30'], _count: 20 } }, { resourceType: 'Patient' }],
  fhir_read: [{ resourceType: 'Patient', id: 'p1' }],
  fhir_create: [{ resourceType: 'Patient', resource: { resourceType: 'Patient', name: [{ family: 'X' }] } }],
  fhir_update: [{ resourceType: 'Patient', id: 'p1', resource: { resourceType: 'Patient', id: 'p1', active: false } }],
  fhir_patch: [{ resourceType: 'Patient', id: 'p1', patch: [{ op: 'replace', path: '/active', value: { nested: [1, 'two'] } }, { op: 'move', path: '/a', from: '/b' }] }],
  fhir_delete: [{ resourceType: 'Patient', id: 'p1' }],
  fhir_history: [{ resourceType: 'Patient', id: 'p1', params: { _count: 10 } }, { resourceType: 'Patient' }],
  terminology_search: [{ query: 'potassium', system: 'http://loinc.org', count: 5 }, { query: 'potassium' }],
  terminology_lookup: [{ system: 'http://loinc.org', code: '2823-3' }],
  run_view: [{ view, patient: 'Patient/p1', limit: 10, format: 'csv' }, { view }],
  sql_query: [{ query: 'SELECT 1', views: [view], format: 'json' }],
  evidence_search: [{ patient: 'p1', question: 'kidney?', topic: 'ckd', count: 3 }, { patient: 'p1' }],
  finish: [{ answer: 'done' }],
};

t.test('every tool\'s strict schema follows strict mode\'s rules', async (t) => {
  for (const tool of agentTools) t.same(strictProblems(strictSchema(tool.definition.parameters), tool.definition.name), [], tool.definition.name);
  const create = strictSchema(agentTools.find((x) => x.definition.name === 'fhir_create')!.definition.parameters);
  t.equal(create.properties.resource.type, 'string', 'a FHIR resource travels as JSON text');
  t.match(create.properties.resource.description, /FHIR R4 resource.*Give it as JSON text/);
  const search = strictSchema(agentTools.find((x) => x.definition.name === 'terminology_search')!.definition.parameters);
  t.same(search.properties.count.type, ['integer', 'null'], 'an optional property is nullable');
  t.match(search.properties.count.description, /\(minimum 1, maximum 100\)/, 'a dropped bound is named in the description');
  t.same(search.properties.query.type, 'string', 'a required one is not');
  const run = strictSchema(agentTools.find((x) => x.definition.name === 'run_view')!.definition.parameters);
  t.same(run.properties.format.enum, ['json', 'csv', null], 'a nullable enum admits null');
});

t.test('strict-mode arguments validate and decode to the tool\'s own arguments', async (t) => {
  const ajv = new Ajv({ strict: false, allErrors: true });
  t.same(Object.keys(samples).sort(), agentTools.map((x) => x.definition.name).sort(), 'a sample for every tool');
  for (const tool of agentTools) {
    const { name, parameters } = tool.definition;
    const own = ajv.compile(parameters);
    const strict = ajv.compile(strictSchema(parameters));
    for (const args of samples[name]) {
      t.ok(own(args), `${name} sample is valid: ${JSON.stringify(own.errors)}`);
      const written = strictArgs(parameters, args);
      t.ok(strict(written), `${name}: strict arguments valid against the strict schema: ${JSON.stringify(strict.errors)}`);
      const decoded = decodeStrictArguments(parameters, written);
      t.same(decoded, args, `${name}: decoded back`);
      t.ok(own(decoded), `${name}: decoded arguments valid against the tool's schema`);
    }
  }
  t.same(decodeStrictArguments({ type: 'object', properties: { r: { type: 'object' } }, required: ['r'] }, { r: '{not json' }), { r: '{not json' },
    'JSON text that does not parse is left for the tool\'s validation to name');
});
