// Client regexes run on RE2 semantics (resources/safe-regex.ts): a ValueSet `regex` filter cannot backtrack without
// limit, patterns RE2 cannot run in linear time are refused with a 400, and pattern length is bounded.
import t from 'tap';
import type { ValueSet } from '@medplum/fhirtypes';
import { assertOutcome, bodyOf, startServer } from '../test-server.ts';
import { MAX_REGEX_LENGTH } from '../../../resources/safe-regex.ts';

const inlineExpand = (property: string, value: string, extra: Record<string, unknown>[] = []) => ({
  resourceType: 'Parameters',
  parameter: [
    { name: 'valueSet', resource: { resourceType: 'ValueSet', status: 'active', compose: { include: [{ system: 'http://loinc.org', filter: [{ property, op: 'regex', value }] }] } } },
    ...extra,
  ],
});

t.test('ValueSet $expand regex filter over the real HTTP server', async (t) => {
  const { baseUrl } = await startServer(t);
  const expand = async (body: unknown) => {
    const res = await fetch(`${baseUrl}/ValueSet/$expand`, { method: 'POST', headers: { 'content-type': 'application/fhir+json' }, body: JSON.stringify(body) });
    const text = await res.text();
    return { statusCode: res.status, headers: Object.fromEntries(res.headers), body: text };
  };

  t.test('the pattern that froze the server answers, with no match', async (t) => {
    // On JavaScript's backtracking RegExp `(.|.)*#` takes 2^n steps per display: the server never answered.
    const res = await expand(inlineExpand('display', '(.|.)*#', [{ name: 'count', valueInteger: 10 }]));
    t.equal(res.statusCode, 200, res.body.slice(0, 300));
    t.equal(bodyOf<ValueSet>(res).expansion?.total, 0);
  });

  t.test('a regex filter matches the whole value', async (t) => {
    const res = await expand(inlineExpand('code', '2823-[0-9]'));
    t.equal(res.statusCode, 200, res.body.slice(0, 300));
    t.same(bodyOf<ValueSet>(res).expansion?.contains?.map((c) => c.code), ['2823-3']);
    const part = await expand(inlineExpand('code', '2823'));
    t.equal(bodyOf<ValueSet>(part).expansion?.total, 0, 'a partial match is no match');
  });

  t.test('backreferences and lookaround (exponential or unbounded) are a 400', async (t) => {
    for (const pattern of ['(a+)\\1', '(?=2823)2823-3', '[']) {
      const oo = assertOutcome(t, await expand(inlineExpand('code', pattern)), 400, 'invalid');
      t.match(oo.issue?.[0].diagnostics, /regular expression/, pattern);
    }
  });

  t.test('pattern length and cost are bounded', async (t) => {
    const long = assertOutcome(t, await expand(inlineExpand('code', 'a'.repeat(MAX_REGEX_LENGTH + 1))), 400, 'invalid');
    t.match(long.issue?.[0].diagnostics, /at most 500/);
    // Short text, large program: each counted repeat is copied out (RE2 caps one repeat at 1000).
    const costly = assertOutcome(t, await expand(inlineExpand('code', '.{0,1000}.{0,1000}x')), 400, 'invalid');
    t.match(costly.issue?.[0].diagnostics, /too costly/);
  });
});

t.test('FHIRPath matches() in a ViewDefinition runs on RE2 too', async (t) => {
  const { baseUrl } = await startServer(t);
  const run = async (where: string) => {
    const res = await fetch(`${baseUrl}/ViewDefinition/$run`, { method: 'POST', headers: { 'content-type': 'application/fhir+json' }, body: JSON.stringify({
      resourceType: 'Parameters',
      parameter: [
        { name: 'viewResource', resource: { resourceType: 'ViewDefinition', resource: 'Patient', status: 'active', select: [{ column: [{ name: 'id', path: 'id' }] }], where: [{ path: where }] } },
        ...['Chalmers', 'x'.repeat(40)].map((family, i) => ({ name: 'resource', resource: { resourceType: 'Patient', id: `p${i}`, name: [{ family }] } })),
      ],
    }) });
    return { statusCode: res.status, headers: Object.fromEntries(res.headers), body: await res.text() };
  };
  const frozen = await run("name.family.matches('(.|.)*#')");
  t.equal(frozen.statusCode, 200, frozen.body.slice(0, 300));
  t.same(JSON.parse(frozen.body), [], 'answers, with no row');
  t.same(JSON.parse((await run("name.family.matches('^Ch')")).body), [{ id: 'p0' }], 'matches(): a part');
  t.same(JSON.parse((await run("name.family.matchesFull('ch.*', 'i')")).body), [{ id: 'p0' }], 'matchesFull() with the i flag');
  t.same(JSON.parse((await run("name.family.replaceMatches('(C)(h)', '$2$1') = 'hCalmers'")).body), [{ id: 'p0' }], 'replaceMatches() with groups');
  assertOutcome(t, await run("name.family.matches('(a)\\\\1')"), 400, 'invalid');
});
