// The generated population: determinism, validity, reference integrity, codes from the tables, clinical coherence.
import t from 'tap';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AllergyIntolerance, Coding, Condition, MedicationRequest, Observation, Resource } from '@medplum/fhirtypes';
import { generatePatient, generatePopulation, type GeneratedBatch } from '../../seed/generate.ts';
import { buildStaff } from '../../seed/staff.ts';
import { NdjsonWriter } from '../../seed/ndjson.ts';
import { NO_MESS } from '../../seed/mess.ts';
import { DEFAULT_REFERENCE_DATE } from '../../seed/time.ts';
import { ingredientsOf, lookupDisplay } from '../../seed/codes/index.ts';
import { resourceReferences } from '../../resources/references.ts';
import { validateResource } from '../../resources/validation/validate.ts';
import { MODULES } from '../../seed/modules/index.ts';

const N = 30;

function population(seed: number, clean = false): Resource[] {
  const out: Resource[] = [];
  for (const b of generatePopulation({ patients: N, seed, mess: clean ? NO_MESS : undefined })) out.push(...b.resources);
  return out;
}

function ndjsonOf(seed: number): Map<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'ehr-gym-seed-'));
  try {
    const writer = new NdjsonWriter(dir);
    for (const b of generatePopulation({ patients: N, seed })) for (const r of b.resources) writer.write(r);
    writer.close();
    return new Map(readdirSync(dir).sort().map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const seed1 = population(1);

t.test('determinism: same N and seed give byte-identical NDJSON; another seed differs', async (t) => {
  const a = ndjsonOf(7);
  const b = ndjsonOf(7);
  t.same([...a.keys()], [...b.keys()]);
  for (const [file, text] of a) t.ok(text === b.get(file), `${file} identical`);
  t.ok(a.has('Patient.ndjson') && a.get('Patient.ndjson')!.split('\n').length === N + 1, 'one Patient line per patient');
  const c = ndjsonOf(8);
  t.not(a.get('Patient.ndjson'), c.get('Patient.ndjson'), 'another seed gives other patients');
  t.not(a.get('Observation.ndjson'), c.get('Observation.ndjson'));
});

t.test('a patient does not depend on the size of the population', async (t) => {
  const small = [...generatePopulation({ patients: 3, seed: 1 })][3].resources;
  const fromBig = seed1.filter((r) => r.id === small[0].id || r.id?.startsWith(`${small[0].id}-`));
  t.equal(JSON.stringify(small), JSON.stringify(fromBig));
});

t.test('every resource passes validation and has a valid, unique id', async (t) => {
  const ids = new Set<string>();
  let invalid = 0;
  for (const r of seed1) {
    const issues = validateResource(r);
    if (issues.length && invalid++ < 5) t.fail(`${r.resourceType}/${r.id}: ${JSON.stringify(issues)}`);
    const key = `${r.resourceType}/${r.id}`;
    if (ids.has(key)) t.fail(`duplicate ${key}`);
    ids.add(key);
    if (!/^[A-Za-z0-9\-.]{1,64}$/.test(r.id ?? '')) t.fail(`bad id ${r.id}`);
  }
  t.equal(invalid, 0, `${seed1.length} resources, none invalid`);
});

t.test('every reference resolves inside the population', async (t) => {
  const ids = new Set(seed1.map((r) => `${r.resourceType}/${r.id}`));
  let dangling = 0;
  let total = 0;
  for (const r of seed1) {
    for (const site of resourceReferences(r)) {
      total++;
      if (!ids.has(site.reference) && dangling++ < 5) t.fail(`${r.resourceType}/${r.id} -> ${site.reference}`);
    }
  }
  t.ok(total > seed1.length, `${total} references checked`);
  t.equal(dangling, 0);
});

function codings(value: unknown, out: Coding[] = []): Coding[] {
  if (Array.isArray(value)) for (const v of value) codings(v, out);
  else if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    // Codings, and Quantities (UCUM system + code; their printable unit plays the display's part).
    if (typeof o.system === 'string' && typeof o.code === 'string') out.push('value' in o ? { system: o.system, code: o.code, display: o.unit as string } : (o as Coding));
    for (const k in o) if (o[k] && typeof o[k] === 'object') codings(o[k], out);
  }
  return out;
}

t.test('every emitted code comes from the checked-in tables with its official display', async (t) => {
  const seen = new Set<string>();
  for (const r of seed1) {
    for (const c of codings(r)) {
      const key = `${c.system}|${c.code}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const display = lookupDisplay(c.system!, c.code!);
      t.ok(display !== undefined, `${key} is in the tables`);
      // UCUM units carry their printable unit in Quantity.unit; Codings carry the table display.
      if (display !== undefined && c.display !== undefined) t.equal(c.display, display, `${key} display`);
    }
  }
  t.ok(seen.size > 100, `${seen.size} distinct codes checked`);
});

t.test('messiness is on by default and --clean turns it off', async (t) => {
  const clean = population(1, true);
  const localOnly = (rs: Resource[]) => rs.filter((r) => r.resourceType === 'Observation' && (r as Observation).category?.[0].coding?.[0].code === 'laboratory'
    && !(r as Observation).code.coding?.some((c) => c.system === 'http://loinc.org')).length;
  const offsets = (rs: Resource[]) => rs.filter((r) => r.resourceType === 'Observation' && /[+-]\d\d:\d\d$/.test((r as Observation).effectiveDateTime ?? '')).length;
  const errors = (rs: Resource[]) => rs.filter((r) => r.resourceType === 'Observation' && (r as Observation).status === 'entered-in-error').length;
  const freeText = (rs: Resource[]) => rs.filter((r) => r.resourceType === 'MedicationRequest' && !(r as MedicationRequest).medicationCodeableConcept?.coding).length;
  t.ok(localOnly(seed1) > 0 && offsets(seed1) > 0, 'default: local-only codes and local offsets appear');
  t.equal(localOnly(clean), 0);
  t.equal(offsets(clean), 0);
  t.equal(errors(clean), 0);
  t.equal(freeText(clean), 0);
  // The mess has its own random stream: the same patients, with the same births, in both.
  const births = (rs: Resource[]) => rs.filter((r) => r.resourceType === 'Patient').map((p) => (p as { birthDate?: string }).birthDate);
  t.same(births(clean), births(seed1));
});

/** Charts until enough patients with each feature are found (bounded), so coherence tests are never vacuous. */
function charts(): GeneratedBatch[] {
  const staff = buildStaff(3);
  const out: GeneratedBatch[] = [];
  const want = { diabetes: 4, warfarin: 2, allergy: 4, hypothyroidism: 2, ckd: 2 };
  const have = { diabetes: 0, warfarin: 0, allergy: 0, hypothyroidism: 0, ckd: 0 };
  for (let i = 0; i < 1500 && Object.entries(want).some(([k, n]) => have[k as keyof typeof have] < n); i++) {
    const b = generatePatient(i, staff, { patients: 0, seed: 3 });
    const has = (k: string) => b.patient!.conditions.includes(k);
    const warfarin = b.resources.some((r) => r.resourceType === 'MedicationRequest' && ingredientsOf((r as MedicationRequest).medicationCodeableConcept?.coding?.[0]?.code ?? '').includes('11289'));
    const features = { diabetes: has('diabetes'), warfarin, allergy: b.resources.some((r) => r.resourceType === 'AllergyIntolerance'), hypothyroidism: has('hypothyroidism'), ckd: has('ckd') };
    if (Object.entries(features).some(([k, v]) => v && have[k as keyof typeof have] < want[k as keyof typeof want])) {
      for (const [k, v] of Object.entries(features)) if (v) have[k as keyof typeof have]++;
      out.push(b);
    }
  }
  return out;
}

const sample = charts();
const ofType = <T extends Resource>(b: GeneratedBatch, type: T['resourceType']) => b.resources.filter((r) => r.resourceType === type) as T[];
const loincValues = (b: GeneratedBatch, loinc: string) => ofType<Observation>(b, 'Observation')
  .filter((o) => o.status !== 'entered-in-error' && o.code.coding?.some((c) => c.code === loinc) && o.valueQuantity?.value !== undefined);

t.test('type 2 diabetes: an A1c >= 6.5% is dated before the diagnosis', async (t) => {
  const diabetics = sample.filter((b) => b.patient!.conditions.includes('diabetes'));
  t.ok(diabetics.length >= 4);
  for (const b of diabetics) {
    const dx = ofType<Condition>(b, 'Condition').find((c) => c.code?.coding?.some((x) => x.code === '44054006') && c.category?.[0].coding?.[0].code === 'problem-list-item')!;
    const onset = Date.parse(dx.onsetDateTime!);
    const before = loincValues(b, '4548-4').filter((o) => Date.parse(o.effectiveDateTime!) < onset && o.valueQuantity!.value! >= 6.5);
    t.ok(before.length > 0, `${b.patient!.id}: A1c >= 6.5 before ${dx.onsetDateTime}`);
    const metformin = ofType<MedicationRequest>(b, 'MedicationRequest').filter((m) => m.medicationCodeableConcept?.text?.startsWith('metformin'));
    for (const m of metformin) t.ok(Date.parse(m.authoredOn!) >= onset, 'metformin only after the diagnosis');
  }
});

t.test('everyone on warfarin has INR results while on it, in the therapeutic neighbourhood', async (t) => {
  const onWarfarin = sample.filter((b) => ofType<MedicationRequest>(b, 'MedicationRequest').some((m) => m.medicationCodeableConcept?.coding?.[0]?.code === '855332'));
  t.ok(onWarfarin.length >= 2);
  for (const b of onWarfarin) {
    const start = Math.min(...ofType<MedicationRequest>(b, 'MedicationRequest').filter((m) => m.medicationCodeableConcept?.coding?.[0]?.code === '855332').map((m) => Date.parse(m.authoredOn!)));
    const inrs = loincValues(b, '6301-6').filter((o) => Date.parse(o.effectiveDateTime!) > start);
    t.ok(inrs.length > 0, `${b.patient!.id} has INR results after starting warfarin`);
    const mean = inrs.reduce((s, o) => s + o.valueQuantity!.value!, 0) / inrs.length;
    t.ok(mean > 1.8 && mean < 3.3, `mean INR on warfarin ${mean.toFixed(2)} (off warfarin it is ~1.0)`);
  }
});

t.test('no active order for a drug the patient is allergic to', async (t) => {
  const allergic = sample.filter((b) => ofType<AllergyIntolerance>(b, 'AllergyIntolerance').length > 0);
  t.ok(allergic.length >= 4);
  for (const b of sample) {
    const allergens = new Set(ofType<AllergyIntolerance>(b, 'AllergyIntolerance').flatMap((a) => ingredientsOf(a.code!.coding![0].code!)));
    for (const m of ofType<MedicationRequest>(b, 'MedicationRequest')) {
      const code = m.medicationCodeableConcept?.coding?.[0]?.code;
      if (!code) continue;
      const hit = ingredientsOf(code).filter((i) => allergens.has(i));
      if (hit.length) t.fail(`${m.id} (${m.status}) orders allergen ingredient ${hit}`);
    }
  }
  t.pass('checked');
});

t.test('hypothyroidism: TSH is high at diagnosis and falls on levothyroxine', async (t) => {
  const hypo = sample.filter((b) => b.patient!.conditions.includes('hypothyroidism'));
  t.ok(hypo.length >= 2);
  for (const b of hypo) {
    const tsh = loincValues(b, '3016-3').sort((x, y) => Date.parse(x.effectiveDateTime!) - Date.parse(y.effectiveDateTime!));
    t.ok(tsh[0].valueQuantity!.value! > 4, `first TSH ${tsh[0].valueQuantity!.value} above range`);
    if (tsh.length > 2) t.ok(tsh[tsh.length - 1].valueQuantity!.value! < tsh[0].valueQuantity!.value!, 'latest TSH lower than at diagnosis');
  }
});

t.test('CKD: eGFR at the end is below 60 and below where it was years earlier', async (t) => {
  const kidney = sample.filter((b) => b.patient!.conditions.includes('ckd'));
  t.ok(kidney.length >= 2);
  for (const b of kidney) {
    const egfr = loincValues(b, '33914-3').sort((x, y) => Date.parse(x.effectiveDateTime!) - Date.parse(y.effectiveDateTime!));
    const last = egfr[egfr.length - 1].valueQuantity!.value!;
    t.ok(last < 60, `${b.patient!.id} latest eGFR ${last}`);
  }
});

t.test('charts end at the reference date: no finished encounter or result after it', async (t) => {
  const ref = Date.parse(DEFAULT_REFERENCE_DATE);
  for (const r of seed1) {
    if (r.resourceType === 'Observation' && Date.parse((r as Observation).effectiveDateTime!) > ref) t.fail(`${r.id} after the reference date`);
    if (r.resourceType === 'Encounter' && (r as { status: string }).status === 'finished' && Date.parse((r as { period: { start: string } }).period.start) > ref) t.fail(`${r.id} finished in the future`);
  }
  const future = seed1.filter((r) => r.resourceType === 'Appointment' && (r as { status: string }).status === 'booked');
  t.ok(future.length > 0, 'some appointments are booked in the future');
});

t.test('the modules: at least 30, spanning at least 21 specialties with practitioners', async (t) => {
  t.ok(MODULES.length >= 30, `${MODULES.length} modules`);
  const roles = new Set(seed1.filter((r) => r.resourceType === 'PractitionerRole').map((r) => JSON.stringify((r as { specialty: unknown }).specialty)));
  t.ok(roles.size >= 21, `${roles.size} specialties staffed`);
});
