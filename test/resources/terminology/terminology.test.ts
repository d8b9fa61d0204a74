// The terminology index and service over the real sources (HL7 definitions, the seed's code tables, our supplement).
import t from 'tap';
import { codeTables, FLOWSHEET, LOINC, RXNORM, RXNORM_CONCEPTS, SNOMED } from '../../../seed/codes/index.ts';
import { LABS } from '../../../seed/codes/labs.ts';
import { validateResource } from '../../../resources/validation/validate.ts';
import {
  buildTerminologyIndex,
  sharedTerminology,
  terminologyResources,
  TerminologyService,
} from '../../../resources/terminology/index.ts';

const service = sharedTerminology();

/** The HTTP status of the FhirError `fn` throws (undefined when it does not throw). */
function statusThrown(fn: () => unknown): number | undefined {
  try {
    fn();
  } catch (err) {
    return (err as { status?: number }).status;
  }
  return undefined;
}
const SCT = SNOMED.system;

t.test('every code in the seed tables resolves with its display', async (t) => {
  let n = 0;
  for (const table of codeTables) {
    for (const [code, display] of Object.entries(table.concepts)) {
      const found = service.lookup(table.system, code);
      // Where HL7 publishes the system, its display is the official one; the seed's own wording is kept as a synonym.
      const hl7 = service.index.codeSystem(table.system)?.resource !== undefined;
      const asSynonym = hl7 && found.designations.some((d) => d.value === display);
      if (found.display !== display && !asSynonym) t.fail(`${table.system}|${code}: display '${found.display}', seed says '${display}'`);
      if (found.display !== display && asSynonym) t.comment(`seed display differs from HL7: ${table.system}|${code} '${display}' vs '${found.display}'`);
      n++;
    }
  }
  t.ok(n > 300, `checked ${n} seed codes`);
});

t.test('LOINC lookup carries the LOINC axes as properties', async (t) => {
  const k = service.lookup(LOINC.system, '2823-3');
  const prop = (code: string) => k.properties.find((p) => p.code === code)?.value.value;
  t.equal(prop('COMPONENT'), 'Potassium');
  t.equal(prop('SYSTEM'), 'Ser/Plas');
  t.equal(prop('SCALE_TYP'), 'Qn');
  t.ok(k.designations.some((d) => d.value === 'Potassium SerPl-sCnc'), 'short name as designation');
  const only = service.lookup(LOINC.system, '2823-3', ['COMPONENT']);
  t.same(only.properties.map((p) => p.code), ['COMPONENT'], 'property parameter limits the properties');
});

t.test('RxNorm clinical drugs name their ingredients, and ingredients their drugs', async (t) => {
  for (const [code, rx] of Object.entries(RXNORM_CONCEPTS)) {
    if (rx.tty !== 'SCD') continue;
    const ingredients = service.lookup(RXNORM.system, code).properties.filter((p) => p.code === 'has_ingredient').map((p) => (p.value.value as { code: string }).code);
    t.same(ingredients.sort(), [...rx.ingredients].sort(), `${code} ${rx.display}`);
  }
  const lisinopril = service.lookup(RXNORM.system, '29046').properties.filter((p) => p.code === 'ingredient_of').map((p) => (p.value.value as { code: string }).code);
  t.ok(lisinopril.includes('314076') && lisinopril.includes('314077'));
});

t.test('expand filter: word-prefix search, best match first', async (t) => {
  for (const url of ['http://loinc.org/vs', 'http://ehr-gym.example/fhir/ValueSet/loinc-laboratory']) {
    const vs = service.expand(service.requireValueSet(url), { filter: 'potassium', count: 3 });
    t.equal(vs.expansion?.contains?.[0]?.code, '2823-3', `${url}: 2823-3 first`);
    t.ok((vs.expansion?.total ?? 0) >= 3, 'other potassium codes match too');
  }
  const prefix = service.expand(service.requireValueSet('http://loinc.org/vs'), { filter: 'pot ser' });
  t.same(prefix.expansion?.contains?.map((c) => c.code), ['2823-3'], 'every word must prefix a word');
  const synonym = service.expand(service.requireValueSet('http://snomed.info/sct?fhir_vs'), { filter: 'T2DM' });
  t.same(synonym.expansion?.contains?.map((c) => c.code), ['44054006'], 'synonyms are searched');
  const vitals = service.expand(service.requireValueSet('http://ehr-gym.example/fhir/ValueSet/loinc-laboratory'), { filter: 'systolic' });
  t.equal(vitals.expansion?.total, 0, 'a vital sign is not in the laboratory value set');
});

t.test('expand paging and designations', async (t) => {
  const all = service.expand(service.requireValueSet('http://loinc.org/vs'));
  const page = service.expand(service.requireValueSet('http://loinc.org/vs'), { offset: 2, count: 2, includeDesignations: true });
  t.equal(page.expansion?.total, all.expansion?.total);
  t.same(page.expansion?.contains?.map((c) => c.code), all.expansion?.contains?.slice(2, 4).map((c) => c.code));
  t.ok(page.expansion?.contains?.some((c) => c.designation?.length), 'designations when asked');
  t.notOk(all.expansion?.contains?.some((c) => c.designation), 'no designations by default');
});

t.test('HL7 value sets expand: is-a filters, imports, enumerations', async (t) => {
  const gender = service.expand(service.requireValueSet('http://hl7.org/fhir/ValueSet/administrative-gender'));
  t.same(gender.expansion?.contains?.map((c) => c.code).sort(), ['female', 'male', 'other', 'unknown']);
  const isa = service.expand({ resourceType: 'ValueSet', status: 'active', compose: { include: [{ system: SCT, filter: [{ property: 'concept', op: 'is-a', value: '709044004' }] }] } });
  t.same(isa.expansion?.contains?.map((c) => c.code).sort(), ['431855005', '431856006', '431857002', '433144002', '433146000', '709044004']);
  const below = service.expand({ resourceType: 'ValueSet', status: 'active', compose: { include: [{ system: SCT, filter: [{ property: 'concept', op: 'descendent-of', value: '709044004' }] }] } });
  t.notOk(below.expansion?.contains?.some((c) => c.code === '709044004'), 'descendent-of excludes the root');
  t.equal(statusThrown(() => service.expand(service.requireValueSet('http://hl7.org/fhir/ValueSet/currencies'))), 422, 'a system we do not hold');
});

t.test('validate-code', async (t) => {
  const lab = service.requireValueSet('http://ehr-gym.example/fhir/ValueSet/loinc-laboratory');
  t.equal(service.validateInValueSet(lab, LOINC.system, '2823-3').result, true);
  t.equal(service.validateInValueSet(lab, LOINC.system, '8480-6').result, false, 'vital sign not in lab set');
  t.equal(service.validateInValueSet(lab, LOINC.system, '2823-3', 'Potassium [Moles/volume] in Serum or Plasma').result, true);
  t.equal(service.validateInValueSet(lab, LOINC.system, '2823-3', 'Sodium').result, false, 'wrong display');
  t.equal(service.validateInValueSet(lab, SCT, '2823-3').result, false, 'right code, wrong system');
  t.equal(service.validateInCodeSystem(FLOWSHEET.system, 'K').result, true);
  t.equal(service.validateInCodeSystem(FLOWSHEET.system, 'k').result, false, 'local codes are case-sensitive');
});

t.test('subsumption', async (t) => {
  t.equal(service.subsumes(SCT, '709044004', '433144002'), 'subsumes');
  t.equal(service.subsumes(SCT, '433144002', '709044004'), 'subsumed-by');
  t.equal(service.subsumes(SCT, '64572001', '44054006'), 'subsumes', 'transitive');
  t.equal(service.subsumes(SCT, '44054006', '44054006'), 'equivalent');
  t.equal(service.subsumes(SCT, '44054006', '59621000'), 'not-subsumed');
  t.equal(statusThrown(() => service.subsumes(SCT, '44054006', '999999')), 404);
});

t.test('translate: every local flowsheet code to LOINC, and back', async (t) => {
  const local = Object.keys(FLOWSHEET.concepts);
  const labLoinc = new Map(Object.values(LABS).map((l) => [l.local, l.loinc]));
  for (const code of local) {
    const out = service.translate({ system: FLOWSHEET.system, code, targetSystem: LOINC.system });
    t.ok(out.result, `${code} translates`);
    if (labLoinc.has(code)) t.same(out.matches.map((m) => m.concept.code), [labLoinc.get(code)], `${code} -> ${labLoinc.get(code)}`);
    for (const m of out.matches) t.ok(LOINC.concepts[m.concept.code!], `${m.concept.code} is in the seed's LOINC table`);
  }
  const back = service.translate({ system: LOINC.system, code: '2823-3', reverse: true, targetSystem: FLOWSHEET.system });
  t.same(back.matches.map((m) => m.concept.code), ['K']);
  const icd = service.translate({ system: 'http://hl7.org/fhir/sid/icd-10-cm', code: 'N18.31' });
  t.same(icd.matches.map((m) => [m.concept.code, m.equivalence]), [['433144002', 'wider']]);
  const none = service.translate({ system: FLOWSHEET.system, code: 'NOPE' });
  t.equal(none.result, false);
});

t.test('search hooks', async (t) => {
  const codes = service.valueSetCodes('http://hl7.org/fhir/ValueSet/observation-status');
  t.ok(codes.has('http://hl7.org/fhir/observation-status|final'));
  t.ok(service.valueSetCodes('http://loinc.org/vs').has('http://loinc.org|2823-3'), 'implicit value set');
  t.equal(statusThrown(() => service.valueSetCodes('http://example.org/no-such-vs')), 400);
  t.ok(service.descendantsOf(SCT, '709044004').has('433144002'));
  t.notOk(service.descendantsOf(SCT, '709044004').has('709044004'), 'descendants exclude the code itself');
  t.ok(service.ancestorsOf(SCT, '433144002').has('64572001'));
  t.same([...service.descendantsOf('http://example.org/unknown', 'x')], []);
  t.ok(service.textMatches(LOINC.system, '2823-3', 'potass serum'));
  t.ok(service.textMatches(LOINC.system, '2823-3', 'K'), 'synonym');
  t.notOk(service.textMatches(LOINC.system, '2823-3', 'sodium'));
});

t.test('terminology resources: unique ids, seed systems as fragments with their concepts', async (t) => {
  const seen = new Set<string>();
  let sct: { content?: string; concept?: { code?: string }[] } | undefined;
  for (const r of terminologyResources(service)) {
    const key = `${r.resourceType}/${r.id}`;
    if (seen.has(key)) t.fail(`duplicate ${key}`);
    seen.add(key);
    if (!/^[A-Za-z0-9\-.]{1,64}$/.test(r.id ?? '')) t.fail(`bad id ${key}`);
    if (r.resourceType === 'CodeSystem' && r.url === SCT) sct = r;
    const errors = validateResource(r).filter((i) => i.severity === 'error');
    if (errors.length) t.fail(`${key} does not validate: ${errors[0].diagnostics?.slice(0, 200)}`);
  }
  t.equal(sct?.content, 'fragment');
  for (const code of Object.keys(SNOMED.concepts)) if (!sct?.concept?.some((c) => c.code === code)) t.fail(`SNOMED ${code} missing`);
  t.ok(seen.size > 1500);
});

t.test('an index without HL7 definitions is built from tables alone', async (t) => {
  const small = new TerminologyService(buildTerminologyIndex({ hl7: false, tables: [{ system: 'urn:x', concepts: [{ code: 'a', display: 'Alpha' }, { code: 'b', display: 'Beta', parents: ['a'] }] }] }));
  t.equal(small.subsumes('urn:x', 'a', 'b'), 'subsumes');
  t.same(small.expand(small.requireValueSet('urn:x?fhir_vs=isa/a')).expansion?.contains?.map((c) => c.code), ['a', 'b']);
});
