// What a clinical module is: it decides whether and when a patient develops a condition (onset, at realistic
// prevalence for age, sex and risk factors), then writes the work-up, diagnosis, treatment and follow-up into the
// shared chart. Modules run in a fixed order; later ones see earlier ones' conditions, medications and lab physiology.
import type { Chart, ConditionSpec, Drug, MedCourse, Visit } from '../chart.ts';
import type { LabKey, PanelKey } from '../codes/labs.ts';
import type { Rng } from '../random.ts';
import type { Specialty } from '../staff.ts';
import { DAY, YEAR } from '../time.ts';

export interface ClinicalModule {
  key: string;
  title: string;
  specialty: Specialty;
  /** Condition codes (for the dataset card); undefined for modules without a single condition. */
  condition?: ConditionSpec;
  /** Phase 1 (all modules, before any run): the onset instant, or undefined when the patient never has it. */
  onset(chart: Chart, planned: ReadonlyMap<string, number>): number | undefined;
  /**
   * Phase 1b (every module with an onset, before any runs): register what the disease does to the body (lab and
   * vital modifiers). Every result any module draws then reads one physiology, whatever order modules run in, so two
   * panels the same day agree. Its draws come from `rng`, a stream of their own, so adding or moving an effect
   * leaves every other module's chart as it was.
   */
  physiology?(chart: Chart, onset: number, rng: Rng): void;
  /** Phase 2: write the chart. */
  run(chart: Chart, onset: number): void;
}

/** Charts carry this many years of follow-up detail before the reference date (diagnoses may be older). */
export const HISTORY_YEARS = 5;

export function historyStart(chart: Chart): number {
  return Math.max(chart.birth, chart.ref - HISTORY_YEARS * YEAR);
}

/**
 * Onset for a chronic condition present by the reference date with probability p: the disease has lasted a uniform
 * 0.1..maxYears, never starting before minAge.
 */
export function chronicOnset(chart: Chart, p: number, minAge: number, maxYears: number): number | undefined {
  if (chart.age < minAge || !chart.rng.chance(Math.min(1, Math.max(0, p)))) return undefined;
  const span = Math.min(maxYears, chart.age - minAge);
  return chart.ref - chart.rng.between(0.1, Math.max(0.2, span)) * YEAR;
}

/** Follow-up instants every ~months (jittered) from `from` (exclusive) to the reference date, inside the history window. */
export function followUps(chart: Chart, from: number, months: number): number[] {
  const out: number[] = [];
  let t = from + months * 30 * DAY * chart.rng.between(0.8, 1.2);
  const start = historyStart(chart);
  while (t < chart.ref - 3 * DAY) {
    if (t >= start) out.push(t);
    t += months * 30 * DAY * chart.rng.between(0.8, 1.25);
  }
  return out;
}

/** Age band used for prevalence and the dataset card. */
export function ageBand(age: number): '0-17' | '18-44' | '45-64' | '65+' {
  return age < 18 ? '0-17' : age < 45 ? '18-44' : age < 65 ? '45-64' : '65+';
}

/** Prevalence by age band (18-44, 45-64, 65+), zero for children unless given. */
export function byAge(age: number, p: [number, number, number], child = 0): number {
  const band = ageBand(age);
  return band === '0-17' ? child : band === '18-44' ? p[0] : band === '45-64' ? p[1] : p[2];
}

/** The first drug the patient is not allergic to. */
export function firstTolerated(chart: Chart, ...drugs: Drug[]): Drug | undefined {
  return drugs.find((d) => !chart.isAllergicTo(d.rxcui));
}

export interface SimpleChronicSpec {
  key: string;
  title: string;
  specialty: Specialty;
  condition: ConditionSpec;
  prevalence(chart: Chart, planned: ReadonlyMap<string, number>): number;
  minAge: number;
  maxYears: number;
  /** First line, then alternatives when allergic. */
  drugs?: Drug[];
  /** Labs at each specialist follow-up. */
  monitor?: (LabKey | PanelKey)[];
  followUpMonths?: number;
  /** Extra work at diagnosis (imaging, procedures). */
  workup?(chart: Chart, visit: Visit): void;
  /** Lab physiology the disease or its treatment changes (registered in the physiology phase). */
  effects?(chart: Chart, onset: number, rng: Rng): void;
  plan: string[];
  /** Condition resolves after this many years (e.g. pregnancy). */
  resolvesAfterYears?: number;
  /** Whether the PCP refers (default) or the patient presents to the specialist. */
  referred?: boolean;
}

const PANEL_KEYS = new Set(['BMP', 'CMP', 'CBC', 'LIPID']);

/** The common shape of a chronic condition: referral, diagnosis, first-line drug, care plan, monitored follow-up. */
export function simpleChronic(spec: SimpleChronicSpec): ClinicalModule {
  return {
    key: spec.key, title: spec.title, specialty: spec.specialty, condition: spec.condition,
    onset: (chart, planned) => chronicOnset(chart, spec.prevalence(chart, planned), spec.minAge, spec.maxYears),
    physiology: spec.effects,
    run(chart, onset) {
      if (spec.referred !== false && spec.specialty !== 'primaryCare') {
        const pre = chart.visit(onset - 30 * DAY, { reason: `Symptoms suggestive of ${spec.title.toLowerCase()}`, type: '185345009' });
        chart.vitals(pre);
        chart.referral(pre, spec.specialty, `evaluation of possible ${spec.title.toLowerCase()}`);
      }
      const visit = chart.visit(onset, { specialty: spec.specialty, reason: `Evaluation of ${spec.title.toLowerCase()}`, type: '11429006' });
      chart.vitals(visit);
      const abated = spec.resolvesAfterYears !== undefined ? onset + spec.resolvesAfterYears * YEAR : undefined;
      chart.diagnose(spec.key, spec.condition, visit, { abated });
      spec.workup?.(chart, visit);
      let course: MedCourse | undefined;
      const drug = spec.drugs ? firstTolerated(chart, ...spec.drugs) : undefined;
      if (drug) course = chart.prescribe(drug, visit, { indication: spec.key, end: abated });
      chart.carePlan(spec.key, visit, spec.plan);
      visit.plan.push(...spec.plan);
      const end = abated ?? chart.ref;
      for (const t of followUps(chart, onset, spec.followUpMonths ?? 12)) {
        if (t > end) break;
        const fu = chart.visit(t, { specialty: spec.specialty, reason: `${spec.title} follow-up`, kind: chart.rng.chance(0.15) ? 'VR' : 'AMB' });
        if (fu.kind === 'AMB') chart.vitals(fu);
        chart.addressed(spec.key, fu, course ? `stable on ${course.drug.product}.` : 'stable.');
        // Monitoring labs are drawn for a video visit too (at the lab beforehand): a drug that needs levels or a
        // viral load never goes a year without one because two follow-ups happened to be virtual.
        for (const m of spec.monitor ?? []) PANEL_KEYS.has(m) ? chart.panel(fu, m as PanelKey) : chart.test(fu, m as LabKey);
      }
      if (abated === undefined && chart.rng.chance(0.5)) chart.appointment(chart.ref + chart.rng.between(7, 120) * DAY, chart.clinician(spec.specialty), `${spec.title} follow-up`, spec.key);
    },
  };
}
