// The terminology operations over HTTP: GET with query parameters, POST with Parameters, errors as OperationOutcome.
import t from 'tap';
import type { Parameters, ValueSet } from '@medplum/fhirtypes';
import { assertOutcome, bodyOf, injectApp, startServer } from '../test-server.ts';

const part = (p: Parameters, name: string) => p.parameter?.find((x) => x.name === name);
const FLOWSHEET = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet';

t.test('terminology operations', async (t) => {
  const { app } = injectApp(t);
  const get = async (url: string) => app.inject({ method: 'GET', url });
  const post = async (url: string, body: unknown) => app.inject({ method: 'POST', url, payload: body as object, headers: { 'content-type': 'application/fhir+json' } });

  t.test('$lookup GET and POST', async (t) => {
    const res = await get('/fhir/CodeSystem/$lookup?system=http://loinc.org&code=2823-3');
    t.equal(res.statusCode, 200);
    const p = bodyOf<Parameters>(res);
    t.equal(part(p, 'display')?.valueString, 'Potassium [Moles/volume] in Serum or Plasma');
    const component = p.parameter?.find((x) => x.name === 'property' && x.part?.some((q) => q.valueCode === 'COMPONENT'));
    t.equal(component?.part?.find((q) => q.name === 'value')?.valueString, 'Potassium');
    const byCoding = bodyOf<Parameters>(await post('/fhir/CodeSystem/$lookup', { resourceType: 'Parameters', parameter: [{ name: 'coding', valueCoding: { system: 'http://snomed.info/sct', code: '433144002' } }] }));
    const parent = byCoding.parameter?.find((x) => x.name === 'property' && x.part?.some((q) => q.valueCode === 'parent'));
    t.equal(parent?.part?.find((q) => q.name === 'value')?.valueCode, '709044004');
  });

  t.test('$expand by url with filter, count and designations', async (t) => {
    const res = await get('/fhir/ValueSet/$expand?url=http://loinc.org/vs&filter=potassium&count=3&includeDesignations=true');
    t.equal(res.statusCode, 200);
    const vs = bodyOf<ValueSet>(res);
    t.equal(vs.resourceType, 'ValueSet');
    t.equal(vs.expansion?.contains?.[0]?.code, '2823-3');
    t.ok(vs.expansion?.contains?.[0]?.designation?.length);
    const byId = bodyOf<ValueSet>(await get('/fhir/ValueSet/administrative-gender/$expand'));
    t.equal(byId.expansion?.total, 4, 'instance-level expand of an HL7 value set');
    const posted = bodyOf<ValueSet>(await post('/fhir/ValueSet/$expand', { resourceType: 'Parameters', parameter: [
      { name: 'url', valueUri: 'http://snomed.info/sct?fhir_vs=isa/709044004' }, { name: 'filter', valueString: 'stage 3' }] }));
    t.same(posted.expansion?.contains?.map((c) => c.code), ['433144002']);
  });

  t.test('$validate-code true and false', async (t) => {
    const yes = bodyOf<Parameters>(await get('/fhir/ValueSet/$validate-code?url=http://hl7.org/fhir/ValueSet/administrative-gender&system=http://hl7.org/fhir/administrative-gender&code=female'));
    t.equal(part(yes, 'result')?.valueBoolean, true);
    const no = bodyOf<Parameters>(await get('/fhir/ValueSet/$validate-code?url=http://hl7.org/fhir/ValueSet/administrative-gender&system=http://hl7.org/fhir/administrative-gender&code=woman'));
    t.equal(part(no, 'result')?.valueBoolean, false);
    t.ok(part(no, 'message')?.valueString);
    const cs = bodyOf<Parameters>(await get('/fhir/CodeSystem/$validate-code?url=http://loinc.org&code=2823-3&display=Sodium'));
    t.equal(part(cs, 'result')?.valueBoolean, false, 'wrong display');
  });

  t.test('$subsumes', async (t) => {
    const p = bodyOf<Parameters>(await get('/fhir/CodeSystem/$subsumes?system=http://snomed.info/sct&codeA=73211009&codeB=44054006'));
    t.equal(part(p, 'outcome')?.valueCode, 'subsumes');
    const q = bodyOf<Parameters>(await post('/fhir/CodeSystem/$subsumes', { resourceType: 'Parameters', parameter: [
      { name: 'codingA', valueCoding: { system: 'http://snomed.info/sct', code: '44054006' } },
      { name: 'codingB', valueCoding: { system: 'http://snomed.info/sct', code: '59621000' } }] }));
    t.equal(part(q, 'outcome')?.valueCode, 'not-subsumed');
  });

  t.test('$translate local -> LOINC and reverse', async (t) => {
    const p = bodyOf<Parameters>(await get(`/fhir/ConceptMap/$translate?system=${encodeURIComponent(FLOWSHEET)}&code=MG&targetsystem=http://loinc.org`));
    t.equal(part(p, 'result')?.valueBoolean, true);
    t.equal(part(p, 'match')?.part?.find((x) => x.name === 'concept')?.valueCoding?.code, '19123-9');
    const r = bodyOf<Parameters>(await get('/fhir/ConceptMap/$translate?system=http://snomed.info/sct&code=59621000&reverse=true'));
    t.equal(part(r, 'match')?.part?.find((x) => x.name === 'concept')?.valueCoding?.code, 'I10');
  });

  t.test('bad input is a 4xx OperationOutcome', async (t) => {
    assertOutcome(t, await get('/fhir/CodeSystem/$lookup?system=http://example.org/nope&code=1'), 404, 'not-found');
    assertOutcome(t, await get('/fhir/CodeSystem/$lookup?system=http://loinc.org'), 400);
    assertOutcome(t, await get('/fhir/CodeSystem/$lookup?system=http://loinc.org&code=0000-0'), 404);
    assertOutcome(t, await get('/fhir/ValueSet/$expand?url=http://example.org/no-vs'), 404);
    assertOutcome(t, await get('/fhir/ValueSet/$expand'), 400);
    assertOutcome(t, await get('/fhir/ValueSet/$expand?url=http://loinc.org/vs&count=-1'), 400);
    assertOutcome(t, await get('/fhir/ValueSet/$expand?url=http://hl7.org/fhir/ValueSet/currencies'), 422);
    assertOutcome(t, await get('/fhir/ValueSet/no-such-id/$expand'), 404);
    assertOutcome(t, await get('/fhir/CodeSystem/$subsumes?system=http://snomed.info/sct&codeA=73211009'), 400);
    assertOutcome(t, await get('/fhir/ConceptMap/$translate?code=K'), 400);
    assertOutcome(t, await post('/fhir/CodeSystem/$lookup', { resourceType: 'Patient' }), 400);
  });
});

t.test('a real client over a socket', async (t) => {
  const { client } = await startServer(t);
  const out = (await client.operation({ name: '$lookup', resourceType: 'CodeSystem', method: 'GET', input: { system: 'http://snomed.info/sct', code: '44054006' } })) as Parameters;
  t.equal(part(out, 'display')?.valueString, 'Diabetes mellitus type 2');
});
