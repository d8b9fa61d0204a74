// `ehr-gym run --perturb KIND[,KIND]`: the same tasks and variants run clean and then once per perturbation kind
// (server/gym/perturbations.ts), and the score drop of each against the clean run. Variants are found once, on the
// clean server state, so every run covers the same episodes.
import { join } from 'node:path';
import { perturbationPreset, type PerturbationKind } from '../contracts/perturbations.ts';
import { runBenchmark, type RunOptions, type RunResult } from './runner.ts';

export interface PerturbedRun {
  kind: PerturbationKind;
  result: RunResult;
  /** Clean minus perturbed: mean checkpoint score and pass@1 (positive: the perturbation hurt). */
  drop: { checkpointScore: number; pass1: number };
}

export interface PerturbationComparison {
  clean: RunResult;
  perturbed: PerturbedRun[];
}

/** The clean run, then one run per kind on the same variants; results under outDir/clean and outDir/<kind>. */
export async function runPerturbationComparison(options: RunOptions, kinds: PerturbationKind[], seed = 1): Promise<PerturbationComparison> {
  const sub = (name: string) => (options.outDir ? { outDir: join(options.outDir, name) } : {});
  const clean = await runBenchmark({ ...options, ...sub('clean') });
  const perturbed: PerturbedRun[] = [];
  for (const kind of kinds) {
    const result = await runBenchmark({
      ...options, ...sub(kind), variants: clean.variants, perturbations: perturbationPreset([kind], seed),
      settings: { ...options.settings, perturbation: kind },
    });
    perturbed.push({
      kind, result,
      drop: { checkpointScore: clean.summary.checkpointScore - result.summary.checkpointScore, pass1: clean.summary.pass1 - result.summary.pass1 },
    });
  }
  return { clean, perturbed };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
/** A drop as signed points: a drop of 0.25 is "-25.0 pt", a gain "+...". */
const pts = (x: number) => `${Math.abs(x) < 0.0005 ? '' : x > 0 ? '-' : '+'}${Math.abs(x * 100).toFixed(1)} pt`;

/** The comparison as a markdown table (terminal and bench/RESULTS.md). */
export function formatComparison(c: PerturbationComparison): string {
  const rows = [
    '| run | episodes | pass@1 | checkpoint score | pass@1 drop | score drop |',
    '|---|---:|---:|---:|---:|---:|',
    `| clean | ${c.clean.episodes.length} | ${pct(c.clean.summary.pass1)} | ${pct(c.clean.summary.checkpointScore)} | | |`,
    ...c.perturbed.map((p) => `| ${p.kind} | ${p.result.episodes.length} | ${pct(p.result.summary.pass1)} | ${pct(p.result.summary.checkpointScore)} | ${pts(p.drop.pass1)} | ${pts(p.drop.checkpointScore)} |`),
  ];
  return rows.join('\n');
}
