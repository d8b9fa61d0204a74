// The dataset card: patients, resources per type, condition prevalence by age band and sex, a comparison with
// published US adult prevalence for the major conditions, and the clinical coherence counts (seed/coherence.ts).
import type { Resource } from '@medplum/fhirtypes';
import type { GeneratedBatch, PatientSummary } from './generate.ts';
import { COHERENCE_RULES, CoherenceCollector, PLANTED_ERRORS, PLANTED_ERROR_SYSTEM, type RuleCounts } from './coherence.ts';
import { MODULES } from './modules/index.ts';
import { DEFAULT_REFERENCE_DATE } from './time.ts';
import { ageBand } from './modules/module.ts';

/**
 * Published US adult (18+) prevalence used for comparison. Sources:
 * - hypertension 47% (any, incl. undiagnosed; diagnosed ~32%): CDC, "Facts About Hypertension", NHANES 2017-2020.
 * - diabetes 11.3% diagnosed: CDC National Diabetes Statistics Report 2023.
 * - CKD stage 3-4 ~6%: USRDS 2023 Annual Data Report (NHANES 2017-2020, stages 3-4).
 * - hyperlipidemia ~28% told high cholesterol: CDC BRFSS/NHANES ("High cholesterol facts").
 * - coronary heart disease 5%: CDC, "Heart disease facts" (NHIS 2019).
 * - heart failure ~2.3%: AHA Heart Disease and Stroke Statistics 2023 (6.7M adults 20+).
 * - atrial fibrillation ~2%: AHA 2023 / CDC ("Atrial fibrillation", 2.7-6.1M).
 * - hypothyroidism ~5%: American Thyroid Association, "General information / press room".
 * - COPD 4.6%: CDC BRFSS 2021 (MMWR 2023).
 * - asthma 8.0%: CDC NHIS 2021, current asthma in adults.
 * - depression 8.3% past-year major depressive episode: NIMH (NSDUH 2021).
 * - osteoporosis 12.6% of adults 50+: NCHS Data Brief 405 (NHANES 2017-2018).
 * - gout 3.9%: Chen-Xu et al., Arthritis Rheumatol 2019 (NHANES 2015-2016).
 * - obesity 41.9%: CDC, NHANES 2017-March 2020.
 */
export const PUBLISHED_ADULT_PREVALENCE: Record<string, { value: number; note: string }> = {
  hypertension: { value: 0.47, note: 'CDC NHANES 2017-2020 (any hypertension; diagnosed ~32%)' },
  diabetes: { value: 0.113, note: 'CDC National Diabetes Statistics Report 2023 (diagnosed)' },
  ckd: { value: 0.06, note: 'USRDS 2023 (stages 3-4)' },
  hyperlipidemia: { value: 0.28, note: 'CDC (told high cholesterol)' },
  cad: { value: 0.05, note: 'CDC NHIS 2019' },
  heartFailure: { value: 0.023, note: 'AHA Statistics 2023' },
  afib: { value: 0.02, note: 'AHA Statistics 2023' },
  hypothyroidism: { value: 0.05, note: 'American Thyroid Association' },
  copd: { value: 0.046, note: 'CDC BRFSS 2021' },
  asthma: { value: 0.08, note: 'CDC NHIS 2021 (current asthma)' },
  depression: { value: 0.083, note: 'NIMH NSDUH 2021 (past-year episode)' },
  gout: { value: 0.039, note: 'Chen-Xu 2019, NHANES 2015-2016' },
  obesity: { value: 0.419, note: 'CDC NHANES 2017-2020 (BMI >= 30; ours: on the problem list)' },
};

export interface DatasetStats {
  patients: number;
  resources: number;
  resourcesPerType: Record<string, number>;
  adults: number;
  ageBands: Record<string, { female: number; male: number }>;
  /** condition key -> band -> sex -> patients with the condition ever diagnosed. */
  conditions: Record<string, Record<string, { female: number; male: number }>>;
  /** Coherence rule key -> items checked, violations, and how many of those are labelled planted errors. */
  coherence: Record<string, RuleCounts>;
}

export class StatsCollector {
  private readonly stats: DatasetStats = { patients: 0, resources: 0, resourcesPerType: {}, adults: 0, ageBands: {}, conditions: {}, coherence: {} };
  private readonly coherence: CoherenceCollector;

  /** `referenceDate`: the population's (ISO); open medication orders run to it. */
  constructor(referenceDate: string = DEFAULT_REFERENCE_DATE) {
    this.coherence = new CoherenceCollector({ reference: Date.parse(referenceDate) });
  }

  add(batch: GeneratedBatch): void {
    for (const r of batch.resources) this.countResource(r);
    if (batch.patient) {
      this.countPatient(batch.patient);
      this.coherence.add(batch.resources);
    }
  }

  private countResource(r: Resource): void {
    this.stats.resources++;
    this.stats.resourcesPerType[r.resourceType] = (this.stats.resourcesPerType[r.resourceType] ?? 0) + 1;
  }

  private countPatient(p: PatientSummary): void {
    const s = this.stats;
    s.patients++;
    if (p.age >= 18) s.adults++;
    const band = ageBand(p.age);
    (s.ageBands[band] ??= { female: 0, male: 0 })[p.sex]++;
    for (const key of p.conditions) {
      const byBand = (s.conditions[key] ??= {});
      (byBand[band] ??= { female: 0, male: 0 })[p.sex]++;
    }
  }

  result(): DatasetStats {
    const sorted = Object.fromEntries(Object.entries(this.stats.resourcesPerType).sort(([a], [b]) => a.localeCompare(b)));
    return { ...this.stats, resourcesPerType: sorted, coherence: this.coherence.counts };
  }
}

const pct = (n: number, d: number) => (d === 0 ? '-' : `${((100 * n) / d).toFixed(1)}%`);

/** The dataset card as Markdown. */
export function datasetCard(stats: DatasetStats, meta: { seed: number; referenceDate: string; clean: boolean; mess: object }): string {
  const bands = ['0-17', '18-44', '45-64', '65+'];
  const lines: string[] = [];
  lines.push('# ehr-gym dataset card', '');
  lines.push(`Population of \`ehr-gym seed --patients ${stats.patients} --seed ${meta.seed}${meta.clean ? ' --clean' : ''}\`, reference date ${meta.referenceDate}. ` +
    `Regenerate this card with \`npx tsx bin/ehr-gym.ts seed --patients ${stats.patients} --seed ${meta.seed}${meta.clean ? ' --clean' : ''} --card seed/DATASET.md\`.`, '');
  lines.push(`- Patients: ${stats.patients} (${stats.adults} adults)`);
  lines.push(`- Resources: ${stats.resources} (${(stats.resources / Math.max(1, stats.patients)).toFixed(0)} per patient on average, staff included)`);
  lines.push(`- Messy-EHR rates: ${meta.clean ? 'off (--clean)' : '`' + JSON.stringify(meta.mess) + '`'}`, '');
  lines.push('## Resources per type', '', '| type | count |', '|---|---:|');
  for (const [type, n] of Object.entries(stats.resourcesPerType)) lines.push(`| ${type} | ${n} |`);
  lines.push('', '## Patients by age band and sex', '', '| band | female | male |', '|---|---:|---:|');
  for (const b of bands) lines.push(`| ${b} | ${stats.ageBands[b]?.female ?? 0} | ${stats.ageBands[b]?.male ?? 0} |`);
  lines.push('', '## Condition prevalence (ever diagnosed) by age band and sex', '');
  lines.push(`| condition | ${bands.map((b) => `${b} F | ${b} M`).join(' | ')} | adults | published US adults |`);
  lines.push(`|---|${bands.map(() => '---:|---:').join('|')}|---:|---|`);
  for (const m of MODULES) {
    if (!m.condition) continue;
    const byBand = stats.conditions[m.key] ?? {};
    const cells = bands.map((b) => `${pct(byBand[b]?.female ?? 0, stats.ageBands[b]?.female ?? 0)} | ${pct(byBand[b]?.male ?? 0, stats.ageBands[b]?.male ?? 0)}`);
    const adultCases = bands.slice(1).reduce((s, b) => s + (byBand[b]?.female ?? 0) + (byBand[b]?.male ?? 0), 0);
    const published = PUBLISHED_ADULT_PREVALENCE[m.key];
    lines.push(`| ${m.title} | ${cells.join(' | ')} | ${pct(adultCases, stats.adults)} | ${published ? `${(published.value * 100).toFixed(1)}% (${published.note})` : ''} |`);
  }
  lines.push('', `Small populations give noisy percentages; the default population has ${stats.patients} patients.`, '');
  lines.push('## Clinical coherence', '');
  lines.push('Rules of `seed/coherence.ts` over every chart. A labelled violation involves a resource tagged as a planted error ' +
    `(\`meta.tag\` system \`${PLANTED_ERROR_SYSTEM}\`: ${Object.keys(PLANTED_ERRORS).map((k) => `\`${k}\``).join(', ')}); an unlabelled one is an accident of the generator.`, '');
  lines.push('| rule | checked | violations | labelled (planted) | unlabelled |', '|---|---:|---:|---:|---:|');
  for (const rule of COHERENCE_RULES) {
    const c = stats.coherence?.[rule.key];
    if (c) lines.push(`| ${rule.title} | ${c.checked} | ${c.violations} | ${c.labelled} | ${c.violations - c.labelled} |`);
  }
  lines.push('');
  return lines.join('\n');
}
