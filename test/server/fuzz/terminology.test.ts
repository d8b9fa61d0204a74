// Property: the terminology operations ($expand, $lookup, $validate-code, $subsumes, $translate) with arbitrary
// query parameters, and with Parameters bodies carrying arbitrary inline ValueSets (odd includes, concepts, filters,
// regexes that backtrack), on the default base and in a session holding its own terminology resources, never answer
// 5xx or hang, and every error body is a JSON OperationOutcome.
import t from 'tap';
import fc from 'fast-check';
import { anyText, oddString, textOf } from './arbitraries.ts';
import { checkProperty, defect, send, startFuzzServer } from './fuzz-client.ts';

const SYSTEMS = ['http://loinc.org', 'http://snomed.info/sct', 'http://www.nlm.nih.gov/research/umls/rxnorm', 'http://hl7.org/fhir/sid/icd-10-cm', 'http://hl7.org/fhir/administrative-gender', 'http://unitsofmeasure.org', 'http://example.org/none', 'http://example.org/fuzz-cs', '', 'loinc'];
const system = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...SYSTEMS) }, { weight: 1, arbitrary: anyText(10) });
const code = fc.oneof(fc.constantFrom('2823-3', '4548-4', '38341003', 'male', 'E11.9', '860975', 'mg', ''), fc.string({ maxLength: 10 }));
const regex = fc.oneof(fc.constantFrom('(.|.)*#', '(a+)+$', '^(\\d+)*$', '.*', '[', '(?=x)', '(a)\\1', 'a{1000000}', 'x'.repeat(5000)), textOf(['(', ')', '.', '*', '+', '?', '|', '[', ']', '{', '}', '\\', 'a', '1', '#', '^', '$', ','], 30));
const filter = fc.record({
  property: fc.oneof(fc.constantFrom('code', 'concept', 'display', 'parent', 'child', 'STATUS', 'x'), fc.string({ maxLength: 5 })),
  op: fc.constantFrom('=', 'regex', 'is-a', 'descendent-of', 'is-not-a', 'in', 'not-in', 'generalizes', 'exists', 'x'),
  value: fc.oneof({ weight: 4, arbitrary: regex }, { weight: 4, arbitrary: code }, { weight: 1, arbitrary: fc.constantFrom(null, 1, []) as fc.Arbitrary<unknown> }),
}, { requiredKeys: ['property', 'op', 'value'] });
const weird = fc.constantFrom(null, 'abc', 1, {}, [null], [1], [{}]);
const include = fc.oneof(
  { weight: 1, arbitrary: weird as fc.Arbitrary<unknown> },
  { weight: 6, arbitrary: fc.record({
    system,
    version: fc.constantFrom('1', '', 'x'),
    concept: fc.oneof({ weight: 9, arbitrary: fc.array(fc.record({ code, display: fc.oneof({ weight: 9, arbitrary: fc.string({ maxLength: 6 }) }, { weight: 1, arbitrary: fc.constant(1) }) }, { requiredKeys: ['code'] }), { maxLength: 3 }) }, { weight: 1, arbitrary: weird }),
    filter: fc.oneof({ weight: 9, arbitrary: fc.array(filter, { maxLength: 3 }) }, { weight: 1, arbitrary: weird }),
    valueSet: fc.oneof({ weight: 9, arbitrary: fc.array(fc.constantFrom('http://hl7.org/fhir/ValueSet/administrative-gender', 'http://x', ''), { maxLength: 2 }) }, { weight: 1, arbitrary: weird }),
  }, { requiredKeys: ['system'] }) },
);
const valueSet = fc.record({
  resourceType: fc.constantFrom('ValueSet', 'ValueSet', 'ValueSet', 'ValueSet', 'ValueSet', 'CodeSystem', 'Patient'),
  status: fc.constantFrom('active', 'active', 'draft', 'x'),
  url: fc.constantFrom('http://example.org/vs', '', 'x'),
  compose: fc.oneof({ weight: 9, arbitrary: fc.record({ include: fc.oneof({ weight: 9, arbitrary: fc.array(include, { minLength: 1, maxLength: 3 }) }, { weight: 1, arbitrary: weird }), exclude: fc.oneof(fc.array(include, { maxLength: 2 }), weird), inactive: fc.constantFrom(true, false, 'yes') }, { requiredKeys: ['include'] }) }, { weight: 1, arbitrary: weird }),
  expansion: fc.oneof({ weight: 9, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: weird }),
}, { requiredKeys: ['resourceType', 'status', 'compose'] });

const PARAM_NAMES = ['url', 'valueSet', 'system', 'code', 'version', 'display', 'filter', 'count', 'offset', 'activeOnly', 'includeDesignations', 'property', 'codeA', 'codeB', 'source', 'target', 'targetsystem', 'abstract', 'displayLanguage', 'x'];
const value = fc.oneof(code, code, system, fc.integer({ min: -2, max: 1_000_000 }).map(String), regex, oddString, fc.constantFrom('true', '%00', '\u0000', 'http://loinc.org|2823-3'));

const KNOWN: [string, string][] = [['http://loinc.org', '2823-3'], ['http://snomed.info/sct', '38341003'], ['http://hl7.org/fhir/administrative-gender', 'male'], ['http://hl7.org/fhir/sid/icd-10-cm', 'E11.9'], ['http://www.nlm.nih.gov/research/umls/rxnorm', '860975'], ['http://example.org/fuzz-cs', 'a'], ['http://example.org/fuzz-cs', 'a1']];
const pair = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...KNOWN) }, { weight: 1, arbitrary: fc.tuple(system, code) });
const VS_URLS = ['http://hl7.org/fhir/ValueSet/administrative-gender', 'http://loinc.org/vs', 'http://snomed.info/sct?fhir_vs', 'http://snomed.info/sct?fhir_vs=isa/38341003', 'http://hl7.org/fhir/ValueSet/observation-status', 'http://example.org/fuzz-vs', 'http://example.org/fuzz-cs?fhir_vs', 'http://x', ''];

/** One parameter: a primitive (sent in the query, or as valueString/valueCode in a body) or an inline resource. */
type Part = [string, string] | [string, { resource: unknown }] | [string, { raw: unknown }];
const extras = fc.array(fc.tuple(fc.constantFrom(...PARAM_NAMES), value).map((p) => p as Part), { maxLength: 3 });
const theValueSet = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom(...VS_URLS).map((u) => ['url', u] as Part) },
  { weight: 2, arbitrary: valueSet.map((vs) => ['valueSet', { resource: vs }] as Part) },
);
const odd = fc.constantFrom<Part>(['valueSet', { raw: null }], ['coding', { raw: 'x' }], ['count', { raw: -1 }], ['x', { raw: [] }]);

const scenarios = fc.oneof(
  fc.tuple(theValueSet, fc.option(regex.map((f) => ['filter', f] as Part), { nil: undefined }), extras).map(([vs, f, e]) => ({ op: '/ValueSet/$expand', parts: [vs, ...(f ? [f] : []), ...e] })),
  fc.tuple(pair, extras).map(([[sys, c], e]) => ({ op: '/CodeSystem/$lookup', parts: [['system', sys] as Part, ['code', c] as Part, ...e] })),
  fc.tuple(theValueSet, pair, extras).map(([vs, [sys, c], e]) => ({ op: '/ValueSet/$validate-code', parts: [vs, ['system', sys] as Part, ['code', c] as Part, ...e] })),
  fc.tuple(pair, extras).map(([[sys, c], e]) => ({ op: '/CodeSystem/$validate-code', parts: [['url', sys] as Part, ['code', c] as Part, ...e] })),
  fc.tuple(pair, code, extras).map(([[sys, a], b, e]) => ({ op: '/CodeSystem/$subsumes', parts: [['system', sys] as Part, ['codeA', a] as Part, ['codeB', b] as Part, ...e] })),
  fc.tuple(pair, extras).map(([[sys, c], e]) => ({ op: '/ConceptMap/$translate', parts: [['system', sys] as Part, ['code', c] as Part, ...e] })),
  fc.tuple(fc.constantFrom('/$expand', '/$lookup', '/ValueSet/x/$expand', '/CodeSystem/x/$lookup', '/ValueSet/administrative-gender/$expand'), extras).map(([op, e]) => ({ op, parts: e })),
).chain((s) => fc.tuple(fc.constant(s), fc.oneof({ weight: 8, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: odd }), fc.boolean()));

/** A scenario as a GET with a query (when it has no resource and `asGet`), else a POST of Parameters. */
function render([{ op, parts }, extra, asGet]: [{ op: string; parts: Part[] }, Part | undefined, boolean]): { method: string; path: string; body: unknown } {
  const all = extra ? [...parts, extra] : parts;
  if (asGet && all.every(([, v]) => typeof v === 'string')) {
    return { method: 'GET', path: `/fhir${op}?${all.map(([k, v]) => `${k}=${encodeURIComponent(v as string)}`).join('&')}`, body: undefined };
  }
  const parameter = all.map(([name, v]) => typeof v === 'string'
    ? { name, [name === 'code' || name === 'codeA' || name === 'codeB' ? 'valueCode' : 'valueString']: v }
    : 'resource' in v ? { name, resource: v.resource } : { name, valueString: v.raw });
  return { method: 'POST', path: `/fhir${op}`, body: { resourceType: 'Parameters', parameter } };
}

export const terminologyRequest = scenarios.map(render);

const STORED = [
  {
    resourceType: 'CodeSystem', url: 'http://example.org/fuzz-cs', version: '1', status: 'active', content: 'complete', hierarchyMeaning: 'is-a',
    concept: [{ code: 'a', display: 'Alpha', concept: [{ code: 'a1', display: 'Alpha one' }, { code: 'a2', display: 'Alpha two', concept: [{ code: 'a2x', display: 'Deep' }] }] }, { code: 'b', display: 'Beta' }],
  },
  { resourceType: 'ValueSet', url: 'http://example.org/fuzz-vs', status: 'active', compose: { include: [{ system: 'http://example.org/fuzz-cs', filter: [{ property: 'concept', op: 'is-a', value: 'a' }] }, { system: 'http://loinc.org', concept: [{ code: '2823-3' }] }] } },
  { resourceType: 'ConceptMap', url: 'http://example.org/fuzz-cm', status: 'active', group: [{ source: 'http://example.org/fuzz-cs', target: 'http://loinc.org', element: [{ code: 'a', target: [{ code: '2823-3', equivalence: 'equivalent' }] }] }] },
];

t.test('terminology operations: no 5xx, no hang, errors are OperationOutcomes', async (t) => {
  const server = await startFuzzServer(t);
  // A session holding its own CodeSystem (a small hierarchy), ValueSet and ConceptMap, which its terminology
  // operations serve alongside the built-in ones.
  const created = await send(server.root, { method: 'POST', path: '/gym/sessions', body: {}, contentType: 'application/json' });
  const session = `/fhir/_session/${(JSON.parse(created.body) as { id: string }).id}`;
  for (const resource of STORED) {
    const res = await send(server.root, { method: 'POST', path: `${session}/${resource.resourceType}`, body: resource });
    t.equal(res.status, 201, `stored ${resource.resourceType}`);
  }
  const base = fc.constantFrom('/fhir', session, session);
  await checkProperty(t, 'terminology', fc.tuple(base, terminologyRequest), async ([b, r]) => {
    const problem = await defect(server.root, { ...r, path: b + r.path.slice('/fhir'.length) });
    return problem && `${problem}\n  request: ${r.method} ${r.path.slice(0, 300)} ${JSON.stringify(r.body)?.slice(0, 600)}`;
  }, 400);
});
