// Builds the documentation validation set: notes written from generated charts (seed/generate.ts, clean data), one
// labelled claim per line, with injected errors - swapped values, wrong dates, wrong citations, fabricated drugs,
// problems, allergies and referrals, wrong doses, stopped drugs stated as current, negated problems, wrong CKD stage,
// wrong laterality. Labels come from how each line was made, never from the verifier.
// Run: npx tsx graders/documentation/validation/build.ts   (writes charts.json and claims.json next to this file)
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AllergyIntolerance, Condition, MedicationRequest, Observation, Resource, ServiceRequest } from '@medplum/fhirtypes';
import { generatePatient } from '../../../seed/generate.ts';
import { NO_MESS } from '../../../seed/mess.ts';
import { buildStaff } from '../../../seed/staff.ts';
import { DEFAULT_REFERENCE_DATE } from '../../../seed/time.ts';
import { fixtureChart, NOTE_DATE } from './fixture-chart.ts';
import { RXNORM, vocabulary } from '../../../resources/evidence/vocabulary.ts';

export type Label = 'supported' | 'contradicted' | 'unsupported';

export interface LabelledLine {
  text: string;
  label: Label;
  /** How the line was made: `faithful` or the injected error. */
  made: string;
}

export interface ValidationNote {
  id: string;
  patient: string;
  asOf: string;
  lines: LabelledLine[];
}

const SEED = 42;
const PATIENTS = [1, 2, 8, 9, 11, 18, 24, 27, 33, 36];
const here = dirname(fileURLToPath(import.meta.url));
const DAY = 86_400_000;
const KEEP = ['Patient', 'Observation', 'Condition', 'MedicationRequest', 'AllergyIntolerance', 'ServiceRequest'];

/** Small deterministic PRNG (mulberry32), so the set is the same on every build. */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, pick: <T>(xs: T[]): T => xs[Math.floor(next() * xs.length)], chance: (p: number) => next() < p };
}

/** The chart trimmed for storage: the verified types, results of the last two years, fields the verifier reads. */
function trim(resources: Resource[], asOf: number): Resource[] {
  const out: Resource[] = [];
  for (const r of resources) {
    if (!KEEP.includes(r.resourceType)) continue;
    const x = structuredClone(r) as unknown as Record<string, unknown>;
    for (const k of ['meta', 'text', 'performer', 'encounter', 'issued', 'requester', 'recorder', 'dispenseRequest', 'category', 'verificationStatus']) {
      if (!(r.resourceType === 'ServiceRequest' && k === 'category')) delete x[k];
    }
    if (r.resourceType === 'Observation') {
      const t = Date.parse((r as Observation).effectiveDateTime ?? '');
      if (asOf - t > 730 * DAY) continue;
      delete x.referenceRange;
    }
    if (r.resourceType === 'ServiceRequest' && !(r as ServiceRequest).performerType && asOf - Date.parse((r as ServiceRequest).authoredOn ?? '') > 730 * DAY) continue;
    out.push(dropDisplays(x) as unknown as Resource);
  }
  return out;
}

/** Coding displays are the tables' (the verifier reads codes and texts): dropped to keep the file small. */
function dropDisplays(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropDisplays);
  if (!value || typeof value !== 'object') return value;
  const o = value as Record<string, unknown>;
  const isCoding = typeof o.system === 'string' && typeof o.code === 'string';
  return Object.fromEntries(Object.entries(o).filter(([k]) => !(isCoding && k === 'display')).map(([k, v]) => [k, dropDisplays(v)]));
}

const fmt = (v: number, decimals: number) => v.toFixed(decimals);
const decimalsOf = (v: number) => (String(v).split('.')[1] ?? '').length;
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const longDate = (iso: string) => `${MONTHS[+iso.slice(5, 7) - 1]} ${+iso.slice(8, 10)}, ${iso.slice(0, 4)}`;
const localDay = (when: string) => when.slice(0, 10);

function notesFor(patient: string, chart: Resource[], asOfText: string, seed: number): ValidationNote {
  const r = rng(seed);
  const vocab = vocabulary();
  const asOf = Date.parse(asOfText);
  const lines: LabelledLine[] = [];
  const add = (text: string, label: Label, made = 'faithful') => lines.push({ text, label, made });

  // ---- results ----------------------------------------------------------------------------------------------
  const obs = chart.filter((x): x is Observation => x.resourceType === 'Observation' && (x as Observation).valueQuantity?.value !== undefined
    && !!(x as Observation).code?.coding?.some((c) => c.system === 'http://loinc.org') && (x as Observation).status !== 'entered-in-error');
  const byCode = new Map<string, Observation[]>();
  for (const o of obs) {
    const code = o.code!.coding!.find((c) => c.system === 'http://loinc.org')!.code!;
    byCode.set(code, [...(byCode.get(code) ?? []), o]);
  }
  for (const list of byCode.values()) list.sort((a, b) => Date.parse(b.effectiveDateTime!) - Date.parse(a.effectiveDateTime!));
  const labCodes = [...byCode.keys()].filter((c) => !['8302-2', '39156-5', '9279-1', '8310-5', '2708-6', '59408-5'].includes(c));
  const chosen = labCodes.sort().filter(() => r.chance(0.75)).slice(0, 9);
  for (const code of chosen) {
    const list = byCode.get(code)!;
    const o = r.chance(0.7) ? list[0] : r.pick(list);
    const name = o.code!.text ?? vocab.concept('observation', `http://loinc.org|${code}`)?.display;
    if (!name) continue;
    const q = o.valueQuantity!;
    const dec = decimalsOf(q.value!);
    const unit = q.unit ?? '';
    const day = localDay(o.effectiveDateTime!);
    const sameDay = list.filter((x) => localDay(x.effectiveDateTime!) === day);
    if (sameDay.some((x) => x.valueQuantity!.value !== q.value)) continue; // ambiguous day (repeat draws): skip
    const roll = r.next();
    if (roll < 0.45) {
      const template = r.pick([
        () => `${name} ${fmt(q.value!, dec)} ${unit} on ${day}.`,
        () => `${name} was ${fmt(q.value!, dec)} ${unit} (${longDate(day)}).`,
        () => `${name} ${fmt(q.value!, dec)} ${unit} on ${day} [Observation/${o.id}].`,
        () => `${name}: ${fmt(q.value!, dec)} ${unit} (${day}).`,
        () => `Most recent ${name.toLowerCase()} of ${fmt(q.value!, dec)} ${unit}, drawn ${day}.`,
        () => `${longDate(day)}: ${name} ${fmt(q.value!, dec)}.`,
        () => `On ${day} the ${name.toLowerCase()} measured ${fmt(q.value!, dec)} ${unit}.`,
      ]);
      add(template(), 'supported');
      if (o === list[0] && code !== '85354-9') add(`Latest ${name.toLowerCase()} ${fmt(q.value!, dec)}.`, 'supported', 'faithful-undated');
    } else if (roll < 0.65) {
      // Swapped value: 30-60% off, never within rounding of any result that day.
      const factor = r.chance(0.5) ? 1 + 0.3 + r.next() * 0.3 : 1 - 0.3 - r.next() * 0.2;
      const wrong = Number(fmt(q.value! * factor, dec));
      if (Math.abs(wrong - q.value!) < 2 * 10 ** -dec) continue;
      add(`${name} ${fmt(wrong, dec)} ${unit} on ${day}.`, 'contradicted', 'swapped-value');
    } else if (roll < 0.8) {
      // Wrong date: moved 20-80 days to a day with no result of this test.
      const shifted = new Date(Date.parse(o.effectiveDateTime!) + (r.chance(0.5) ? -1 : 1) * (20 + Math.floor(r.next() * 60)) * DAY).toISOString().slice(0, 10);
      if (list.some((x) => Math.abs(Date.parse(localDay(x.effectiveDateTime!)) - Date.parse(shifted)) <= DAY)) continue;
      add(`${name} ${fmt(q.value!, dec)} ${unit} on ${shifted}.`, 'contradicted', 'wrong-date');
    } else if (roll < 0.9 && list.length > 1) {
      const other = list.find((x) => x.valueQuantity!.value !== q.value && localDay(x.effectiveDateTime!) !== day);
      if (!other) continue;
      add(`${name} ${fmt(q.value!, dec)} ${unit} [Observation/${other.id}].`, 'contradicted', 'wrong-citation');
    } else {
      add(`${name} ${fmt(q.value!, dec)} ${unit} on ${day} [Observation/${o.id}x].`, 'unsupported', 'fabricated-citation');
    }
  }
  const absentLabs = [['Troponin', '10839-9', '0.04 ng/mL'], ['BNP', '30934-4', '410 pg/mL'], ['TSH', '3016-3', '2.1 mIU/L'], ['INR', '6301-6', '2.4'], ['Ferritin', '2276-4', '35 ng/mL'], ['PT', '5902-2', '13 s']]
    .filter(([, code]) => !byCode.has(code) && code !== '5902-2');
  if (absentLabs.length) {
    const [name, , value] = r.pick(absentLabs);
    add(`${name} ${value} on ${new Date(asOf - 3 * DAY).toISOString().slice(0, 10)}.`, 'unsupported', 'fabricated-result');
  }

  // ---- medications --------------------------------------------------------------------------------------------
  const meds = chart.filter((x): x is MedicationRequest => x.resourceType === 'MedicationRequest');
  const ingredientOf = (m: MedicationRequest) => {
    const codes = vocab.expandCodings(m.medicationCodeableConcept?.coding);
    const key = [...codes].find((c) => c.startsWith(`${RXNORM}|`) && vocab.concept('medication', c));
    return key ? vocab.concept('medication', key)! : undefined;
  };
  const active = meds.filter((m) => m.status === 'active');
  const activeIngredients = new Set(active.map((m) => ingredientOf(m)?.display));
  const everIngredients = new Set(meds.map((m) => ingredientOf(m)?.display));
  const freqText = (perDay: number) => ({ 1: 'once daily', 2: 'twice daily', 3: 'three times daily' } as Record<number, string>)[perDay];
  for (const m of active) {
    const ing = ingredientOf(m);
    const dose = m.dosageInstruction?.[0]?.doseAndRate?.[0]?.doseQuantity;
    const perDay = m.dosageInstruction?.[0]?.timing?.repeat?.frequency;
    if (!ing || !dose || dose.unit !== 'mg' || !perDay || !freqText(perDay)) continue;
    if (active.filter((x) => ingredientOf(x)?.display === ing.display).length > 1) continue;
    const roll = r.next();
    const bid = ({ 1: 'daily', 2: 'BID', 3: 'TID' } as Record<number, string>)[perDay];
    if (roll < 0.6) add(r.pick([
      `On ${ing.display} ${dose.value} mg ${freqText(perDay)}.`,
      `${ing.display[0].toUpperCase()}${ing.display.slice(1)} ${dose.value}mg PO ${bid}.`,
      `Current regimen includes ${ing.display} ${dose.value} mg ${bid}.`,
    ]), 'supported');
    else if (roll < 0.8) add(`Continues ${ing.display} ${dose.value! * 4} mg ${freqText(perDay)}.`, 'contradicted', 'wrong-dose');
    else add(`${ing.display[0].toUpperCase()}${ing.display.slice(1)} was discontinued.`, 'contradicted', 'active-stated-stopped');
  }
  const stopped = meds.filter((m) => m.status === 'stopped' && ingredientOf(m) && !activeIngredients.has(ingredientOf(m)!.display));
  for (const m of stopped.slice(0, 2)) {
    const ing = ingredientOf(m)!;
    if (r.chance(0.5)) add(`${ing.display[0].toUpperCase()}${ing.display.slice(1)} was stopped.`, 'supported');
    else add(`Remains on ${ing.display} daily.`, 'contradicted', 'stopped-stated-current');
  }
  const fabricated = ['warfarin', 'apixaban', 'lithium carbonate', 'methotrexate', 'donepezil', 'levetiracetam', 'dolutegravir', 'hydroxychloroquine', 'tamsulosin', 'sumatriptan']
    .filter((d) => !everIngredients.has(d));
  for (let i = 0; i < 2; i++) add(`Taking ${r.pick(fabricated)} ${r.pick([5, 10, 20, 50])} mg once daily.`, 'unsupported', 'fabricated-medication');

  // ---- problems -----------------------------------------------------------------------------------------------
  const conditions = chart.filter((x): x is Condition => x.resourceType === 'Condition');
  const activeConditions = conditions.filter((c) => c.clinicalStatus?.coding?.[0]?.code === 'active');
  const named = (c: Condition) => vocab.find(c.code?.text ?? '').find((m) => m.kind === 'condition');
  const seen = new Set<string>();
  for (const c of activeConditions) {
    const mention = named(c);
    if (!mention || seen.has(mention.display)) continue;
    seen.add(mention.display);
    const roll = r.next();
    const text = c.code!.text!;
    if (roll < 0.6) add(r.pick([`History of ${text.toLowerCase()}.`, `PMH notable for ${mention.text}.`, `${text} - stable.`]), 'supported');
    else if (roll < 0.85) add(`No history of ${mention.text.toLowerCase()}.`, 'contradicted', 'negated-problem');
    else {
      const stage = /stage (\d)/i.exec(text);
      if (stage) add(`CKD stage ${stage[1] === '4' ? '2' : '4'}.`, 'contradicted', 'wrong-stage');
      else add(`Known ${text.toLowerCase()}.`, 'supported');
    }
  }
  const everConditions = new Set(conditions.flatMap((c) => [...vocab.expandCodings(c.code?.coding)]));
  const absentProblems = [['heart failure', '84114007'], ['atrial fibrillation', '49436004'], ['hypothyroidism', '40930008'], ['COPD', '13645005'], ['chronic hepatitis C', '128302006'], ['HIV infection', '86406008']]
    .filter(([, code]) => !everConditions.has(`http://snomed.info/sct|${code}`));
  const [absentA, absentB] = [r.pick(absentProblems), r.pick(absentProblems)];
  add(`Known ${absentA[0]}, followed by cardiology.`.replace(', followed by cardiology', ''), 'unsupported', 'fabricated-problem');
  add(`No history of ${absentB[0]}.`, 'supported', 'faithful-negation');

  // ---- allergies ------------------------------------------------------------------------------------------------
  const allergies = chart.filter((x): x is AllergyIntolerance => x.resourceType === 'AllergyIntolerance');
  if (allergies.length) {
    const a = allergies[0];
    add(`Allergies: ${a.code?.coding?.[0]?.display ?? a.code?.text}.`, 'supported');
    add('NKDA.', 'contradicted', 'nkda-with-allergy');
  } else {
    add('NKDA.', 'supported');
    add(`Allergic to ${r.pick(['amoxicillin', 'cephalexin', 'sulfamethoxazole'])}.`, 'unsupported', 'fabricated-allergy');
  }

  // ---- orders ---------------------------------------------------------------------------------------------------
  const requests = chart.filter((x): x is ServiceRequest => x.resourceType === 'ServiceRequest');
  const panelNames: Record<string, string> = { '51990-0': 'BMP', '24323-8': 'CMP', '58410-2': 'CBC', '24331-1': 'lipid panel', '4548-4': 'hemoglobin A1c' };
  const ordered = new Set(requests.map((s) => s.code?.coding?.[0]?.code));
  const panel = Object.keys(panelNames).find((c) => ordered.has(c));
  if (panel) add(`Ordered ${panelNames[panel]}.`, 'supported');
  const referrals = requests.filter((s) => s.performerType);
  const specialties = new Set(referrals.flatMap((s) => s.performerType!.coding!.map((c) => c.code)));
  const refNames: [string, string][] = [['nephrology', '394589003'], ['cardiology', '394579002'], ['endocrinology', '394583002'], ['rheumatology', '394810000'], ['neurology', '394591006']];
  const had = refNames.find(([, code]) => specialties.has(code));
  if (had) add(`Referral to ${had[0]} placed.`, 'supported');
  const never = refNames.filter(([, code]) => !specialties.has(code));
  add(`Referred to ${r.pick(never)[0]}.`, 'unsupported', 'fabricated-referral');
  return { id: `note-${patient}`, patient, asOf: asOfText, lines };
}

/** The fixture chart's own lines: laterality and a lab coded only with a local code. */
function fixtureNote(): ValidationNote {
  return {
    id: 'note-p1', patient: 'p1', asOf: NOTE_DATE, lines: [
      { text: 'Right breast cancer, on follow-up.', label: 'supported', made: 'faithful' },
      { text: 'Left breast cancer, on follow-up.', label: 'contradicted', made: 'wrong-laterality' },
      { text: 'Carcinoma of the left breast: breast cancer, left side.', label: 'contradicted', made: 'wrong-laterality' },
      { text: 'Hemoglobin 9.8 g/dL on 2026-03-02.', label: 'supported', made: 'faithful-local-code' },
      { text: 'Glucose 140 mg/dL on 2026-03-02.', label: 'supported', made: 'faithful-unit-conversion' },
      { text: 'Glucose 200 mg/dL on 2026-03-02.', label: 'contradicted', made: 'swapped-value' },
      { text: 'Potassium 7.1 mmol/L on 2026-03-01.', label: 'unsupported', made: 'entered-in-error-value' },
      { text: 'CKD stage 4.', label: 'supported', made: 'faithful-icd-only' },
      { text: 'CKD stage 3.', label: 'contradicted', made: 'wrong-stage' },
      { text: 'Spironolactone 25 mg once daily.', label: 'contradicted', made: 'stopped-stated-current' },
      { text: 'Taking furosemide 40 mg once daily.', label: 'supported', made: 'faithful-free-text-order' },
    ],
  };
}

export function buildValidationSet(): { charts: Record<string, Resource[]>; notes: ValidationNote[] } {
  const staff = buildStaff(SEED);
  const charts: Record<string, Resource[]> = {};
  const notes: ValidationNote[] = [];
  const asOf = DEFAULT_REFERENCE_DATE;
  for (const index of PATIENTS) {
    const batch = generatePatient(index, staff, { patients: Math.max(...PATIENTS) + 1, seed: SEED, mess: NO_MESS });
    const id = batch.patient!.id;
    charts[id] = trim(batch.resources, Date.parse(asOf));
    notes.push(notesFor(id, charts[id], asOf, index + 1));
  }
  charts.p1 = fixtureChart;
  notes.push(fixtureNote());
  return { charts, notes };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { charts, notes } = buildValidationSet();
  writeFileSync(join(here, 'charts.json'), JSON.stringify({ description: `Charts of seed ${SEED} patients ${PATIENTS.join(', ')} (clean data, trimmed to the verified types and two years of results) and the test fixture p1.`, charts }) + '\n');
  writeFileSync(join(here, 'claims.json'), JSON.stringify({ description: 'Validation notes: one labelled claim per line (label from construction; `made` names the injected error).', notes }, null, 1) + '\n');
  const lines = notes.flatMap((n) => n.lines);
  const by = (k: (l: LabelledLine) => string) => Object.entries(lines.reduce<Record<string, number>>((a, l) => ({ ...a, [k(l)]: (a[k(l)] ?? 0) + 1 }), {}));
  console.log(`${notes.length} notes, ${lines.length} labelled claims`, by((l) => l.label), by((l) => l.made));
}
