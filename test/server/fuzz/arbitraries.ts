// fast-check arbitraries for the fuzz properties: FHIR paths, search queries and bodies that are mostly almost right
// (real types, real parameter names, real element names with the wrong shapes), which reach deeper code than noise.
import fc from 'fast-check';

/** Any code point, including control characters and astral ones (fast-check's 'binary' unit). */
export const anyText = (maxLength = 20) => fc.string({ unit: 'binary', maxLength });

/** Strings made of `chars`, for grammars such as regexes and search prefixes. */
export const textOf = (chars: string[], maxLength = 20) => fc.string({ unit: fc.constantFrom(...chars), maxLength });

/** A long string, seldom: 64 KiB to 1 MiB of one character. */
const hugeString = fc.tuple(fc.constantFrom('x', 'é', '\u0000', ' ', '"'), fc.constantFrom(65_536, 1_048_576)).map(([c, n]) => c.repeat(n));

export const oddString = fc.oneof(
  { weight: 6, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 3, arbitrary: anyText() },
  { weight: 1, arbitrary: hugeString },
);

export const RESOURCE_TYPES = [
  'Patient', 'Observation', 'Condition', 'MedicationRequest', 'Encounter', 'Procedure', 'DiagnosticReport',
  'AllergyIntolerance', 'Immunization', 'DocumentReference', 'Practitioner', 'Organization', 'Bundle', 'Parameters',
  'ValueSet', 'CodeSystem', 'ConceptMap', 'ViewDefinition', 'OperationOutcome', 'Binary', 'Resource', 'DomainResource',
];
const resourceType = fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...RESOURCE_TYPES) }, { weight: 2, arbitrary: fc.constantFrom('patient', 'Foo', 'metadata', '_history', '_search', '$everything', '_session', '') });

/** A path segment as sent: escaped when it must be, or raw escapes (valid, invalid, double, NUL, slash, dots). */
const segment = (plain: fc.Arbitrary<string>) =>
  fc.oneof(
    { weight: 6, arbitrary: plain.map(encodeURIComponent) },
    { weight: 3, arbitrary: fc.constantFrom('.', '..', '%2E', '%2e%2E', '%00', '%2F', '%252F', '%ZZ', '%', '%C0%AF', '%E2%80%AE', ';', ';x=1', 'a%20b', '_history', '_session', '$validate', '*') },
  );

const id = segment(fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom('p1', 'p2', 'o1', 'missing', 'A-1.b', 'x'.repeat(64), 'x'.repeat(65)) },
  { weight: 3, arbitrary: fc.string({ maxLength: 70 }) },
  { weight: 2, arbitrary: anyText(10) },
));

const OPERATIONS = ['$everything', '$validate', '$lookup', '$expand', '$validate-code', '$subsumes', '$translate', '$run', '$sqlquery-run', '$evidence', '$meta', '$nope'];
const operation = fc.constantFrom(...OPERATIONS);

/** A path under a FHIR base (the part after `/fhir` or `/fhir/_session/ID`). */
export const fhirPath = fc.oneof(
  fc.constant(''),
  fc.constantFrom('/metadata', '/_history', '/_search', '/$sqlquery-run', '/$validate'),
  resourceType.map((t) => `/${t}`),
  fc.tuple(resourceType, fc.constantFrom('/_search', '/_history')).map(([t, s]) => `/${t}${s}`),
  fc.tuple(resourceType, operation).map(([t, o]) => `/${t}/${o}`),
  fc.tuple(resourceType, id).map(([t, i]) => `/${t}/${i}`),
  fc.tuple(resourceType, id, fc.constantFrom('/_history', '/_history/1', '/_history/0', '/_history/999', '/_history/x', '/_history/%00', '/_history/1/x')).map(([t, i, h]) => `/${t}/${i}${h}`),
  fc.tuple(resourceType, id, operation).map(([t, i, o]) => `/${t}/${i}/${o}`),
  fc.tuple(resourceType, id, resourceType).map(([t, i, c]) => `/${t}/${i}/${c}`),
  fc.array(segment(fc.string({ maxLength: 8 })), { minLength: 1, maxLength: 6 }).map((s) => `/${s.join('/')}`),
);

const SEARCH_PARAMS = [
  '_id', '_lastUpdated', '_tag', '_profile', '_security', '_text', '_content', '_list', '_has', '_type', '_filter', '_query',
  'name', 'family', 'given', 'gender', 'birthdate', 'identifier', 'address', 'telecom', 'general-practitioner', 'organization',
  'subject', 'patient', 'encounter', 'code', 'category', 'status', 'date', 'value-quantity', 'value-string', 'value-concept',
  'combo-code', 'component-code-value-quantity', 'code-value-quantity', 'clinical-status', 'onset-date', 'authoredon',
  'medication', 'intent', 'performer', 'based-on', 'url', 'version', 'system', 'type', 'participant', 'link',
];
const MODIFIERS = ['', ':exact', ':contains', ':missing', ':not', ':text', ':in', ':not-in', ':below', ':above', ':of-type', ':identifier', ':Patient', ':iterate', ':nope', ':'];
const RESULT_PARAMS = ['_count', '_sort', '_include', '_revinclude', '_include:iterate', '_revinclude:iterate', '_summary', '_elements', '_total', '_format', '_pretty', '_contained', '_containedType', '_offset', '_getpages', '_since', '_at'];

const chain = fc.array(fc.constantFrom('subject:Patient', 'patient', 'link:Patient', 'general-practitioner', 'organization', 'encounter', 'performer:Practitioner', 'x'), { minLength: 1, maxLength: 14 })
  .chain((links) => fc.constantFrom(...SEARCH_PARAMS).map((last) => `${links.join('.')}.${last}`));
const has = fc.array(fc.constantFrom('_has:Observation:subject', '_has:Condition:patient', '_has:Foo:bar', '_has:Observation'), { minLength: 1, maxLength: 8 })
  .chain((links) => fc.constantFrom(...SEARCH_PARAMS).map((last) => `${links.join(':')}:${last}`));

const paramName = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(fc.constantFrom(...SEARCH_PARAMS), fc.constantFrom(...MODIFIERS)).map(([p, m]) => p + m) },
  { weight: 3, arbitrary: fc.constantFrom(...RESULT_PARAMS) },
  { weight: 2, arbitrary: chain },
  { weight: 1, arbitrary: has },
  { weight: 1, arbitrary: anyText(8) },
);

const PREFIXES = ['', 'eq', 'ne', 'gt', 'lt', 'ge', 'le', 'sa', 'eb', 'ap', 'xx'];
const scalarValue = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 15 }) },
  { weight: 2, arbitrary: anyText(8) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...PREFIXES), fc.constantFrom('2020', '2020-01', '2020-01-01', '2020-13-45', '2020-01-01T10:00:00Z', '2020-01-01T25:00', '99999', '-1', '1e400', '5.4|http://unitsofmeasure.org|mmol/L', '5||mg', 'NaN', '')).map(([p, v]) => p + v) },
  { weight: 2, arbitrary: fc.constantFrom('*', 'Patient:subject', 'Observation:subject', '*:*', 'Patient:link:Patient', 'http://loinc.org|', '|x', 'http://loinc.org|2823-3', 'Patient/p1', 'p1', 'urn:uuid:x', 'true', 'false', '-_lastUpdated', '_id,-birthdate', 'count', 'data', 'text', 'accurate', 'json', 'xml', '%00', '\u0000', '\\,', '\\|', '\\$') },
  { weight: 2, arbitrary: fc.integer({ min: -5, max: 100_000 }).map(String) },
);
/** A value, sometimes a comma-separated OR list, up to 1200 long. */
const paramValue = fc.oneof(
  { weight: 8, arbitrary: scalarValue },
  { weight: 1, arbitrary: fc.array(scalarValue, { maxLength: 20 }).map((v) => v.join(',')) },
  { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 90, max: 1200 }), fc.constantFrom('male', 'x', 'http://loinc.org|1')).map(([n, v]) => Array.from({ length: n }, () => v).join(',')) },
);

/** A query string (`?...` or ''), each pair escaped, or a raw fragment with bad escapes. */
export const query = fc.oneof(
  { weight: 1, arbitrary: fc.constant('') },
  { weight: 1, arbitrary: fc.constantFrom('?', '?&&', '?=', '?a=%', '?name=%ZZ', '?name=%00', '?_count=%00', '?name', '?_sort=', '?_include=', '?%00=1', '?_text=%00&_content=%00') },
  { weight: 8, arbitrary: fc.array(fc.tuple(paramName, paramValue), { minLength: 1, maxLength: 6 })
    .map((pairs) => '?' + pairs.map(([k, v]) => `${encodeURIComponent(k).replace(/%3A/g, ':')}=${encodeURIComponent(v)}`).join('&')) },
);

const ELEMENTS = [
  'id', 'meta', 'text', 'contained', 'extension', 'modifierExtension', 'identifier', 'status', 'code', 'category', 'subject',
  'patient', 'encounter', 'effectiveDateTime', 'issued', 'valueQuantity', 'valueString', 'valueCodeableConcept', 'component',
  'name', 'gender', 'birthDate', 'deceasedBoolean', 'address', 'telecom', 'link', 'active', 'intent', 'medicationCodeableConcept',
  'medicationReference', 'dosageInstruction', 'clinicalStatus', 'verificationStatus', 'onsetDateTime', 'note', 'reference',
  'coding', 'system', 'display', 'url', 'compose', 'expansion', 'concept', 'select', 'resource', 'entry', 'type', 'parameter',
  'issue', 'fullUrl', 'request', 'response', 'content', 'presentedForm', 'result', 'performer', 'period', 'value', '_gender',
  'resourceType', '', '__proto__', 'constructor',
];

const leaf = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1.5, 1e308, '', 'abc', 'Patient/p1', 'Patient/', 'Patient?', '#nope', '#', 'urn:uuid:1b4e28ba-2fa1-11d2-883f-0016d3cca427', '2020-01-01', 'final', 'male', 'http://loinc.org'),
  oddString,
  fc.double(),
);

/** JSON with FHIR element names as keys: real names with wrong shapes, nested. */
const fhirishValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 5, arbitrary: leaf },
    { weight: 2, arbitrary: fc.array(tie('value'), { maxLength: 4 }) },
    { weight: 2, arbitrary: fc.dictionary(fc.constantFrom(...ELEMENTS), tie('value'), { maxKeys: 5 }) },
    { weight: 1, arbitrary: fc.record({ reference: fc.oneof(fc.constantFrom('Patient/p1', 'Patient/missing', '#c1', 'Observation/o1/_history/1'), fc.string({ maxLength: 10 })) }) },
    { weight: 1, arbitrary: fc.record({ coding: fc.array(fc.record({ system: fc.constantFrom('http://loinc.org', 'http://snomed.info/sct', '', 'x'), code: fc.oneof(fc.string({ maxLength: 6 }), leaf) }, { requiredKeys: [] }), { maxLength: 3 }) }) },
  ),
})).value;

/** A resource of a real type whose elements are real names with arbitrary (mostly wrong) values. */
export const fhirishResource = fc.tuple(fc.constantFrom(...RESOURCE_TYPES, 'Foo'), fc.dictionary(fc.constantFrom(...ELEMENTS), fhirishValue, { maxKeys: 6 }), fc.option(fc.constantFrom('p1', 'o1', 'new-1', '.', '..', 'a b', ''), { nil: undefined }))
  .map(([type, elements, id]) => ({ ...elements, resourceType: type, ...(id === undefined ? {} : { id }) }));

/** A valid-ish Patient or Observation, so writes and transactions get past validation sometimes. */
const plausibleResource = fc.oneof(
  fc.record({ resourceType: fc.constant('Patient'), gender: fc.constantFrom('male', 'female', 'other', 'unknown'), birthDate: fc.constantFrom('1970-01-01', '2001-02-30', '1999'), name: fc.constant([{ family: 'Fuzz' }]) }),
  fc.record({ resourceType: fc.constant('Observation'), status: fc.constantFrom('final', 'preliminary', 'bogus'), code: fc.constant({ text: 'x' }), subject: fc.constantFrom({ reference: 'Patient/p1' }, { reference: 'urn:uuid:1b4e28ba-2fa1-11d2-883f-0016d3cca427' }, { reference: 'Patient/missing' }) }),
);

const bundleEntry = fc.oneof(
  fc.constantFrom(null, 1, 'x', [], {}, { request: null }, { request: {} }, { resource: null }),
  fc.record({
    fullUrl: fc.oneof(fc.constantFrom('urn:uuid:1b4e28ba-2fa1-11d2-883f-0016d3cca427', 'urn:uuid:x', 'Patient/p1', ''), fc.string({ maxLength: 8 })),
    resource: fc.oneof(plausibleResource, fhirishResource),
    request: fc.record({
      method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'get', 'X'),
      url: fc.oneof(fc.constantFrom('Patient', 'Patient/p1', 'Observation?code=x', 'Patient/$everything', '', '/', 'http://evil/Patient', 'Patient?_count=10000&_include=*', '_history', 'metadata', 'Patient/p1/_history/1', 'Bundle'), fc.string({ maxLength: 12 })),
      ifNoneExist: fc.constantFrom('identifier=x', '', '_id=p1', 'bad=%00'),
      ifMatch: fc.constantFrom('W/"1"', 'x', ''),
    }, { requiredKeys: ['method', 'url'] }),
  }, { requiredKeys: [] }),
);

export const bundle = fc.record({
  resourceType: fc.constant('Bundle'),
  type: fc.oneof(fc.constantFrom('transaction', 'batch', 'collection', 'searchset', 'document', 'history', 'transaction-response'), leaf),
  entry: fc.oneof({ weight: 9, arbitrary: fc.array(bundleEntry, { maxLength: 6 }) }, { weight: 1, arbitrary: leaf }),
}, { requiredKeys: ['resourceType'] });

const parameterPart: fc.Arbitrary<unknown> = fc.letrec<{ part: unknown }>((tie) => ({
  part: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(null, 'x', 1, [], {}),
    fc.record({
      name: fc.oneof(fc.constantFrom('resource', 'valueSet', 'url', 'system', 'code', 'coding', 'codeableConcept', 'filter', 'count', 'offset', 'query', 'view', 'viewResource', 'patient', '_format', '_limit', 'mode', 'profile', 'codeA', 'codeB', 'concept', 'group', 'source', 'target'), fc.string({ maxLength: 6 }), leaf),
      valueString: leaf, valueCode: leaf, valueUri: leaf, valueInteger: leaf, valueBoolean: leaf, valueCoding: fhirishValue,
      resource: fc.oneof(fhirishResource, plausibleResource, leaf),
      part: fc.array(tie('part'), { maxLength: 3 }),
    }, { requiredKeys: [] }),
  ),
})).part;

export const parameters = fc.record({
  resourceType: fc.constant('Parameters'),
  parameter: fc.oneof({ weight: 9, arbitrary: fc.array(parameterPart, { maxLength: 5 }) }, { weight: 1, arbitrary: leaf }),
}, { requiredKeys: ['resourceType'] });

const jsonPatch = fc.array(fc.record({ op: fc.constantFrom('add', 'remove', 'replace', 'move', 'copy', 'test', 'x'), path: fc.constantFrom('/gender', '/name/0', '/id', '/resourceType', '/meta', '', '/', '/a~2', '/name/-'), value: fhirishValue, from: fc.constantFrom('/name', '/x') }, { requiredKeys: ['op'] }), { maxLength: 3 });

/** A body and its content type (undefined: the property's default, FHIR JSON). */
export const body = fc.oneof(
  { weight: 3, arbitrary: fhirishResource.map((b) => ({ body: b as unknown, contentType: undefined as string | undefined })) },
  { weight: 2, arbitrary: plausibleResource.map((b) => ({ body: b as unknown, contentType: undefined as string | undefined })) },
  { weight: 2, arbitrary: bundle.map((b) => ({ body: b as unknown, contentType: undefined as string | undefined })) },
  { weight: 2, arbitrary: parameters.map((b) => ({ body: b as unknown, contentType: undefined as string | undefined })) },
  { weight: 1, arbitrary: jsonPatch.map((b) => ({ body: b as unknown, contentType: 'application/json-patch+json' as string | undefined })) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((b) => ({ body: b as unknown, contentType: undefined as string | undefined })) },
  { weight: 1, arbitrary: fc.tuple(anyText(40), fc.constantFrom('application/fhir+json', 'application/json', 'application/json-patch+json', 'application/x-www-form-urlencoded', 'application/fhir+xml', 'text/plain', 'multipart/form-data; boundary=x', 'application/json; charset=latin1', ''))
    .map(([text, type]) => ({ body: text as unknown, contentType: type as string | undefined })) },
);

export const method = fc.constantFrom('GET', 'GET', 'GET', 'POST', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'PROPFIND');

const searchType = fc.constantFrom('Patient', 'Patient', 'Observation', 'Observation', 'Condition', 'MedicationRequest', 'Encounter', 'DiagnosticReport', 'ValueSet', 'CodeSystem');
const knownId = fc.oneof({ weight: 3, arbitrary: fc.constantFrom('p1', 'p2', 'o1') }, { weight: 1, arbitrary: id });
const typed = (type: string) => fc.oneof(
  { weight: 2, arbitrary: fhirishResource.map((r) => ({ ...r, resourceType: type }) as Record<string, unknown>) },
  { weight: 2, arbitrary: plausibleResource.map((r) => r as Record<string, unknown>) },
);
/** Body only where the interaction takes one; HEAD and GET never carry one. */
type Sent = { method: string; path: string; body?: unknown; contentType?: string };

/**
 * A request under a FHIR base (its path after the base): mostly a coherent interaction (search, read, create,
 * update, patch, delete, history, batch/transaction, operation) with odd parts, sometimes anything at all.
 */
export const fhirRequest: fc.Arbitrary<Sent> = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(searchType, query).map(([t, q]): Sent => ({ method: 'GET', path: `/${t}${q}` })) },
  { weight: 1, arbitrary: fc.tuple(searchType, query).map(([t, q]): Sent => ({ method: 'POST', path: `/${t}/_search`, body: q.slice(1), contentType: 'application/x-www-form-urlencoded' })) },
  { weight: 1, arbitrary: query.map((q): Sent => ({ method: 'GET', path: `/${q.includes('_type') ? '' : '_history'}${q}` })) },
  { weight: 2, arbitrary: fc.tuple(searchType, knownId, fc.constantFrom('', '/_history', '/_history/1', '/_history/2', '/_history/x', '/$everything', '/$evidence'), fc.constantFrom('', '?_summary=true', '?_elements=id,gender', '?_format=json', '?_count=1', '?_since=2020-01-01'))
    .map(([t, i, s, q]): Sent => ({ method: 'GET', path: `/${t}/${i}${s}${q}` })) },
  { weight: 2, arbitrary: searchType.chain((t) => typed(t).map((b): Sent => ({ method: 'POST', path: `/${t}`, body: b }))) },
  { weight: 2, arbitrary: fc.tuple(searchType, knownId).chain(([t, i]) => typed(t).map((b): Sent => ({ method: 'PUT', path: `/${t}/${i}`, body: { ...b, id: decodeURIComponentSafe(i) } }))) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('Patient', 'Observation'), query).chain(([t, q]) => typed(t).map((b): Sent => ({ method: 'PUT', path: `/${t}${q}`, body: b }))) },
  { weight: 1, arbitrary: fc.tuple(searchType, knownId, jsonPatch).map(([t, i, p]): Sent => ({ method: 'PATCH', path: `/${t}/${i}`, body: p, contentType: 'application/json-patch+json' })) },
  { weight: 1, arbitrary: fc.tuple(searchType, fc.oneof(knownId.map((i) => `/${i}`), query)).map(([t, rest]): Sent => ({ method: 'DELETE', path: `/${t}${rest}` })) },
  { weight: 3, arbitrary: bundle.map((b): Sent => ({ method: 'POST', path: '', body: b })) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom('/Patient/$validate', '/Observation/$validate', '/Patient/p1/$validate', '/ViewDefinition/$run', '/$sqlquery-run', '/Patient/p1/$everything', '/Patient/$everything', '/Patient/p1/$evidence', '/ValueSet/$expand'), parameters)
    .map(([p, b]): Sent => ({ method: 'POST', path: p, body: b })) },
  { weight: 2, arbitrary: fc.record({ method, path: fhirPath, query, payload: body })
    .map((r): Sent => ({ method: r.method, path: r.path + r.query, body: r.payload.body, contentType: r.payload.contentType })) },
);

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
