// The clinical coherence checker (issue 16, item 9): rules a physician reading a generated chart would hold it to,
// run over one patient's resources at a time. Each rule reports how many things it checked and the violations it
// found, naming the patient and the resources involved. A violation whose resources carry a planted-error tag
// (PLANTED_ERROR_SYSTEM, recorded in the dataset metadata) is a deliberate, labelled trap; any other is an accident
// of the generator that a task could not tell from an intended trap.
//
// The rules read FHIR as a client would (codes, dates, statuses), never the generator's internal state, so they can
// judge any population, including one loaded from NDJSON.
import type { AllergyIntolerance, Coding, Immunization, MedicationDispense, MedicationRequest, Observation, Procedure, Resource, ServiceRequest } from '@medplum/fhirtypes';
import { CVX, FLOWSHEET, LOINC, PLANTED_ERROR, RXNORM, SNOMED, codingOf, ingredientsOf } from './codes/index.ts';
import { LABS, type LabDef } from './codes/labs.ts';
import { rxcuiOfIngredient } from './codes/rxnorm.ts';
import { convertValue } from '../resources/units/analytes.ts';
import { ANTIRETROVIRALS, LITHIUM, P2Y12_INHIBITORS, therapyClash } from './drug-classes.ts';
import { DAY, YEAR } from './time.ts';

/** meta.tag system of a deliberately planted error; the code names the kind of error (PLANTED_ERRORS). */
export const PLANTED_ERROR_SYSTEM = PLANTED_ERROR.system;

/** The kinds of planted error the generator may write, by tag code (seed/codes/planted-error.ts). */
export const PLANTED_ERRORS = PLANTED_ERROR.concepts as Readonly<Record<'duplicate-order', string>>;
export type PlantedError = keyof typeof PLANTED_ERRORS;

export function plantedErrorTag(code: PlantedError): Coding {
  return codingOf(PLANTED_ERROR, code);
}

export interface Violation {
  rule: string;
  patient: string;
  /** "Type/id" of each resource involved. */
  resources: string[];
  detail: string;
  /** True when one of the resources carries a planted-error tag: an intended, labelled trap. */
  labelled: boolean;
}

export interface RuleOutcome {
  /** How many items the rule judged (lab pairs, stents, regimens ...): a rule that checked nothing proves nothing. */
  checked: number;
  violations: Violation[];
}

export interface CoherenceRule {
  key: string;
  title: string;
  check(record: PatientRecord): RuleOutcome;
}

export interface CoherenceOptions {
  /** The dataset's reference date (ms): the end of every open period. */
  reference: number;
  /** Monitoring rules look back this far (charts carry detail for a limited history). Default 5 years. */
  historyYears?: number;
}

// ---- the patient's resources, read once ------------------------------------------------------------------------

const time = (s: string | undefined): number | undefined => (s ? Date.parse(s) : undefined);
const refOf = (r: Resource): string => `${r.resourceType}/${r.id}`;
const isPlanted = (r: Resource): boolean => !!r.meta?.tag?.some((t) => t.system === PLANTED_ERROR_SYSTEM);

/** A medication order as a period of therapy with its ingredients. */
export interface OrderPeriod {
  resource: MedicationRequest;
  ingredients: string[];
  start: number;
  /** Exclusive; the reference date for an active order. */
  end: number;
}

export class PatientRecord {
  readonly patientId: string;
  readonly labs: { resource: Observation; def: LabDef; at: number; value: number }[] = [];
  readonly observations: Observation[] = [];
  readonly orders: OrderPeriod[] = [];
  readonly procedures: Procedure[] = [];
  readonly immunizations: Immunization[] = [];
  readonly dispenses: MedicationDispense[] = [];
  /** Completed test orders: the test was done even when its result lives only in a note (the mess layer's noteOnly). */
  readonly completedOrders: ServiceRequest[] = [];
  readonly allergies: AllergyIntolerance[] = [];
  readonly conditionCodes = new Set<string>();
  readonly byRef = new Map<string, Resource>();

  constructor(resources: readonly Resource[], readonly options: CoherenceOptions) {
    const patient = resources.find((r) => r.resourceType === 'Patient');
    this.patientId = patient?.id ?? '';
    for (const r of resources) {
      this.byRef.set(refOf(r), r);
      switch (r.resourceType) {
        case 'Observation': this.addObservation(r); break;
        case 'MedicationRequest': this.addOrder(r); break;
        case 'Procedure': if (r.status === 'completed') this.procedures.push(r); break;
        case 'Immunization': if (r.status === 'completed') this.immunizations.push(r); break;
        case 'MedicationDispense': this.dispenses.push(r); break;
        case 'ServiceRequest': if (r.status === 'completed') this.completedOrders.push(r); break;
        case 'AllergyIntolerance': if (r.clinicalStatus?.coding?.[0]?.code === 'active') this.allergies.push(r); break;
        case 'Condition': for (const c of r.code?.coding ?? []) if (c.code) this.conditionCodes.add(c.code); break;
      }
    }
  }

  get reference(): number {
    return this.options.reference;
  }

  /** The start of the window monitoring rules judge (detail is only written for recent years). */
  get historyStart(): number {
    return this.reference - (this.options.historyYears ?? 5) * YEAR;
  }

  private addObservation(o: Observation): void {
    if (o.status === 'entered-in-error' || o.status === 'cancelled') return;
    this.observations.push(o);
    const def = labDefOf(o);
    const at = time(o.effectiveDateTime);
    if (!def || at === undefined || o.valueQuantity?.value === undefined) return;
    const value = convertValue(o.valueQuantity.value, o.valueQuantity.code ?? o.valueQuantity.unit, def.unit, [def.loinc]);
    if (value !== undefined) this.labs.push({ resource: o, def, at, value });
  }

  private addOrder(m: MedicationRequest): void {
    if (m.status === 'entered-in-error' || m.status === 'cancelled' || m.status === 'draft' || m.doNotPerform) return;
    // A free-text order (the mess layer's freeTextMed) is read by its drug name, as a clinician reading it would.
    const rxcui = m.medicationCodeableConcept?.coding?.find((c) => c.system === RXNORM.system)?.code
      ?? rxcuiOfIngredient(m.medicationCodeableConcept?.text?.split(' ')[0] ?? '');
    const start = time(m.dosageInstruction?.[0]?.timing?.repeat?.boundsPeriod?.start ?? m.authoredOn);
    if (!rxcui || start === undefined) return;
    const open = m.status === 'active' || m.status === 'on-hold';
    const end = open ? this.options.reference : time(m.dosageInstruction?.[0]?.timing?.repeat?.boundsPeriod?.end) ?? start + DAY;
    this.orders.push({ resource: m, ingredients: ingredientsOf(rxcui), start, end });
  }

  /** Orders of any of these ingredients. */
  ordersOf(ingredients: ReadonlySet<string>): OrderPeriod[] {
    return this.orders.filter((o) => o.ingredients.some((i) => ingredients.has(i)));
  }

  /**
   * Times of the observations (and completed orders) coded with any of these LOINC codes, or with the local flowsheet code of one (the mess
   * layer's local-code-only results: a clinician reading the flowsheet still sees the test was done).
   */
  observedAt(loincs: ReadonlySet<string>): number[] {
    const matches = (c: Coding) => (c.system === LOINC.system && loincs.has(c.code!))
      || (c.system === FLOWSHEET.system && loincs.has(LAB_BY_LOCAL.get(c.code!)?.loinc ?? ''));
    const done = this.completedOrders.filter((s) => s.code?.coding?.some(matches)).map((s) => time(s.occurrenceDateTime ?? s.authoredOn));
    return this.observations
      .filter((o) => o.code.coding?.some(matches))
      .map((o) => time(o.effectiveDateTime))
      .concat(done)
      .filter((t): t is number => t !== undefined)
      .sort((a, b) => a - b);
  }

  violation(rule: string, resources: Resource[], detail: string): Violation {
    return { rule, patient: this.patientId, resources: resources.map(refOf), detail, labelled: resources.some(isPlanted) };
  }
}

const LAB_BY_LOINC = new Map(Object.values(LABS).map((d: LabDef) => [d.loinc, d]));
const LAB_BY_LOCAL = new Map(Object.values(LABS).map((d: LabDef) => [d.local, d]));

function labDefOf(o: Observation): LabDef | undefined {
  if (!o.category?.some((c) => c.coding?.some((x) => x.code === 'laboratory'))) return undefined;
  for (const c of o.code.coding ?? []) {
    if (c.system === LOINC.system && LAB_BY_LOINC.has(c.code!)) return LAB_BY_LOINC.get(c.code!);
    if (c.system === FLOWSHEET.system && LAB_BY_LOCAL.has(c.code!)) return LAB_BY_LOCAL.get(c.code!);
  }
  return undefined;
}

/** Periods overlap by more than a day (a dose change stops one order the day the next starts). */
const overlap = (a: OrderPeriod, b: OrderPeriod): boolean => Math.min(a.end, b.end) - Math.max(a.start, b.start) > DAY;

/**
 * Gaps in monitoring: across [from, to), every stretch without an observation longer than `maxGap` (the first
 * stretch is allowed `maxGap` after the start too, time to order the first test).
 */
function monitoringGap(times: number[], from: number, to: number, maxGap: number): boolean {
  if (to - from <= maxGap) return false;
  let last = from;
  for (const t of times) {
    if (t < from) continue;
    if (t >= to) break;
    if (t - last > maxGap) return true;
    last = t;
  }
  return to - last > maxGap;
}

// ---- drug classes the rules need (RxNorm ingredient RXCUIs) ----------------------------------------------------


/** PCI (with or without a stent). */
const STENT_PROCEDURES = new Set(['415070008', '36969009']);
/** HIV infection problem-list codes (SNOMED, ICD-10-CM). */
const HIV_CONDITIONS = ['86406008', 'B20', 'Z21'];
/** HIV-1 RNA (viral load) LOINC codes. */
const HIV_VIRAL_LOAD = new Set(['20447-9', '25836-8', '10351-5', '24013-3', '41513-3']);
/** Serum lithium level. */
const LITHIUM_LEVEL = new Set(['14334-7']);
const PHQ9_TOTAL = '44261-6';

/**
 * US licensure or emergency-use authorisation date of each CVX code the generator writes (FDA): COVID-19 mRNA
 * (Pfizer-BioNTech EUA 2020-12-11), recombinant zoster (2017-10-20), PCV13 for adults (2011-12-30), HPV9
 * (2014-12-10), HPV4 (2006-06-08), Tdap (Boostrix 2005-05-03), varicella (1995-03-17), DTaP (1991-07-31), hepatitis B recombinant
 * (1986-07-23), PPSV23 (1983-07-01), MMR (1971-01-01), IPV (1955-04-12), Td (1953-01-01), injectable influenza (1945).
 */
export const VACCINE_AUTHORISED: Record<string, string> = {
  '208': '2020-12-11', '187': '2017-10-20', '133': '2011-12-30', '165': '2014-12-10', '62': '2006-06-08', '115': '2005-05-03',
  '21': '1995-03-17', '20': '1991-07-31', '08': '1986-07-23', '43': '1986-07-23', '33': '1983-07-01', '03': '1971-01-01',
  '10': '1955-04-12', '113': '1953-01-01', '140': '1945-01-01',
};

// ---- the rules -----------------------------------------------------------------------------------------------

/**
 * How far two results of one analyte drawn the same day may differ before they contradict each other: four times
 * the measurement noise of a difference (the physiology's noise SD is 0.3 of the population SD), or 15% of the
 * value, whichever is larger (biological variation within a day).
 */
export function sameDayTolerance(def: LabDef, value: number): number {
  return Math.max(4 * Math.SQRT2 * 0.3 * def.normal[1], 0.15 * Math.abs(value));
}

const sameDayLabs: CoherenceRule = {
  key: 'same-day-labs', title: 'No contradictory results of one analyte within 24 hours',
  check(p) {
    const violations: Violation[] = [];
    let checked = 0;
    const byAnalyte = new Map<string, typeof p.labs>();
    for (const l of p.labs) byAnalyte.set(l.def.key, [...(byAnalyte.get(l.def.key) ?? []), l]);
    for (const list of byAnalyte.values()) {
      list.sort((a, b) => a.at - b.at);
      for (let i = 0; i < list.length; i++) {
        for (let j = i + 1; j < list.length && list[j].at - list[i].at < DAY; j++) {
          checked++;
          const [a, b] = [list[i], list[j]];
          if (Math.abs(a.value - b.value) > sameDayTolerance(a.def, Math.max(a.value, b.value))) {
            violations.push(p.violation('same-day-labs', [a.resource, b.resource], `${a.def.key} ${a.value} and ${b.value} within 24 h`));
          }
        }
      }
    }
    return { checked, violations };
  },
};

const duplicateTherapy: CoherenceRule = {
  key: 'duplicate-therapy', title: 'No overlapping orders of one ingredient, ACE inhibitor with ARB, or two beta blockers',
  check(p) {
    const violations: Violation[] = [];
    let checked = 0;
    const what = { 'same-ingredient': 'the same ingredient ordered twice', 'ace-arb': 'ACE inhibitor with ARB', 'two-beta-blockers': 'two beta blockers' };
    for (let i = 0; i < p.orders.length; i++) {
      for (let j = i + 1; j < p.orders.length; j++) {
        const [a, b] = [p.orders[i], p.orders[j]];
        if (!overlap(a, b)) continue;
        checked++;
        const clash = therapyClash(a.ingredients, b.ingredients);
        if (clash) violations.push(p.violation('duplicate-therapy', [a.resource, b.resource], what[clash]));
      }
    }
    return { checked, violations };
  },
};

const stentAntiplatelet: CoherenceRule = {
  key: 'stent-antiplatelet', title: 'Every coronary stent followed by a P2Y12 inhibitor (DAPT) unless a documented reason',
  check(p) {
    const violations: Violation[] = [];
    // A documented reason: the P2Y12 inhibitor recorded as not to be given (doNotPerform), with its reason.
    const declined = [...p.byRef.values()].some((r) => r.resourceType === 'MedicationRequest' && r.doNotPerform && !!r.reasonCode?.length
      && ingredientsOf(r.medicationCodeableConcept?.coding?.find((c) => c.system === RXNORM.system)?.code ?? '').some((i) => P2Y12_INHIBITORS.has(i)));
    const stents = p.procedures.filter((x) => x.code?.coding?.some((c) => c.system === SNOMED.system && STENT_PROCEDURES.has(c.code!)));
    for (const stent of stents) {
      const at = time(stent.performedDateTime ?? stent.performedPeriod?.start);
      if (at === undefined) continue;
      const covered = p.ordersOf(P2Y12_INHIBITORS).some((o) => o.start <= at + 30 * DAY && o.end > at);
      if (!covered && !declined) violations.push(p.violation('stent-antiplatelet', [stent], 'stent without a P2Y12 inhibitor within 30 days'));
    }
    return { checked: stents.length, violations };
  },
};

const hasHiv = (p: PatientRecord) => HIV_CONDITIONS.some((c) => p.conditionCodes.has(c));

const artRegimen: CoherenceRule = {
  key: 'art-regimen', title: 'Every antiretroviral regimen has at least 2 drugs and viral-load monitoring',
  check(p) {
    const art = p.ordersOf(ANTIRETROVIRALS);
    if (!hasHiv(p) && art.length === 0) return { checked: 0, violations: [] };
    const violations: Violation[] = [];
    for (const o of art) {
      const drugs = new Set<string>();
      for (const other of art) if (other === o || overlap(o, other)) for (const i of other.ingredients) if (ANTIRETROVIRALS.has(i)) drugs.add(i);
      if (drugs.size < 2) violations.push(p.violation('art-regimen', [o.resource], `antiretroviral regimen of ${drugs.size} drug`));
    }
    const viralLoads = p.observedAt(HIV_VIRAL_LOAD);
    for (const o of art) {
      if (monitoringGap(viralLoads, Math.max(o.start, p.historyStart), Math.min(o.end, p.reference), YEAR)) {
        violations.push(p.violation('art-regimen', [o.resource], 'antiretroviral therapy without a viral load for over a year'));
      }
    }
    return { checked: art.length, violations };
  },
};

const lithiumLevels: CoherenceRule = {
  key: 'lithium-levels', title: 'Lithium monitored by serum levels (at least yearly)',
  check(p) {
    const orders = p.ordersOf(LITHIUM);
    const levels = p.observedAt(LITHIUM_LEVEL);
    const violations = orders
      .filter((o) => monitoringGap(levels, Math.max(o.start, p.historyStart), Math.min(o.end, p.reference), YEAR))
      .map((o) => p.violation('lithium-levels', [o.resource], 'lithium without a level for over a year'));
    return { checked: orders.length, violations };
  },
};

const vaccineAuthorised: CoherenceRule = {
  key: 'vaccine-authorised', title: 'Vaccines given only after their US authorisation',
  check(p) {
    const violations: Violation[] = [];
    let checked = 0;
    for (const imm of p.immunizations) {
      const cvx = imm.vaccineCode.coding?.find((c) => c.system === CVX.system)?.code;
      const at = time(imm.occurrenceDateTime);
      const from = cvx ? VACCINE_AUTHORISED[cvx] : undefined;
      if (!from || at === undefined) continue;
      checked++;
      if (at < Date.parse(from)) violations.push(p.violation('vaccine-authorised', [imm], `CVX ${cvx} on ${imm.occurrenceDateTime}, authorised ${from}`));
    }
    return { checked, violations };
  },
};

const phq9Items: CoherenceRule = {
  key: 'phq9-items', title: 'Every PHQ-9 total equals the sum of its items',
  check(p) {
    const violations: Violation[] = [];
    let checked = 0;
    for (const o of p.observations) {
      if (!o.code.coding?.some((c) => c.system === LOINC.system && c.code === PHQ9_TOTAL) || o.valueQuantity?.value === undefined) continue;
      const items = (o.hasMember ?? []).map((m) => p.byRef.get(m.reference ?? '') as Observation | undefined);
      const values = items.length > 0 ? items.map((i) => i?.valueQuantity?.value ?? i?.valueInteger) : (o.component ?? []).map((c) => c.valueQuantity?.value ?? c.valueInteger);
      if (values.length === 0) continue;
      checked++;
      const sum = values.reduce<number>((s, v) => s + (v ?? NaN), 0);
      if (sum !== o.valueQuantity.value) violations.push(p.violation('phq9-items', [o], `total ${o.valueQuantity.value}, items sum to ${sum}`));
    }
    return { checked, violations };
  },
};

const dispenseAfterOrder: CoherenceRule = {
  key: 'dispense-after-order', title: 'Every dispense follows the order it fills',
  check(p) {
    const violations: Violation[] = [];
    for (const d of p.dispenses) {
      const order = p.byRef.get(d.authorizingPrescription?.[0]?.reference ?? '') as MedicationRequest | undefined;
      const handed = time(d.whenHandedOver);
      const authored = time(order?.authoredOn);
      if (!order || handed === undefined || authored === undefined) violations.push(p.violation('dispense-after-order', [d], 'dispense without its order'));
      else if (handed < authored) violations.push(p.violation('dispense-after-order', [d, order], 'dispensed before it was ordered'));
    }
    return { checked: p.dispenses.length, violations };
  },
};

const allergyOrders: CoherenceRule = {
  key: 'allergy-orders', title: 'No order for a drug with a recorded allergy unless a documented reason',
  check(p) {
    const violations: Violation[] = [];
    let checked = 0;
    for (const a of p.allergies) {
      const allergen = a.code?.coding?.find((c) => c.system === RXNORM.system)?.code;
      if (!allergen) continue;
      const from = time(a.onsetDateTime) ?? time(a.recordedDate) ?? 0;
      for (const o of p.ordersOf(new Set(ingredientsOf(allergen).concat(allergen)))) {
        checked++;
        const documented = o.resource.note?.some((n) => /allerg/i.test(n.text ?? ''));
        if (o.end > from && !documented) violations.push(p.violation('allergy-orders', [a, o.resource], `order for allergen ${allergen}`));
      }
    }
    return { checked, violations };
  },
};

export const COHERENCE_RULES: readonly CoherenceRule[] = [
  sameDayLabs, duplicateTherapy, stentAntiplatelet, artRegimen, lithiumLevels, vaccineAuthorised, phq9Items, dispenseAfterOrder, allergyOrders,
];

/** Every rule over one patient's resources. */
export function checkPatient(resources: readonly Resource[], options: CoherenceOptions): Record<string, RuleOutcome> {
  const record = new PatientRecord(resources, options);
  return Object.fromEntries(COHERENCE_RULES.map((rule) => [rule.key, rule.check(record)]));
}

export interface RuleCounts {
  checked: number;
  violations: number;
  labelled: number;
}

/** Per-rule counts over a population, one patient at a time (memory stays flat); keeps the unlabelled violations. */
export class CoherenceCollector {
  readonly counts: Record<string, RuleCounts> = Object.fromEntries(COHERENCE_RULES.map((r) => [r.key, { checked: 0, violations: 0, labelled: 0 }]));
  readonly unlabelled: Violation[] = [];

  constructor(private readonly options: CoherenceOptions) {}

  add(resources: readonly Resource[]): void {
    if (!resources.some((r) => r.resourceType === 'Patient')) return;
    for (const [key, outcome] of Object.entries(checkPatient(resources, this.options))) {
      const c = this.counts[key];
      c.checked += outcome.checked;
      c.violations += outcome.violations.length;
      for (const v of outcome.violations) v.labelled ? c.labelled++ : this.unlabelled.push(v);
    }
  }
}
