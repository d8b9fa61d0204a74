// Train/test splits. Patients are partitioned by a hash of their id, so the partition needs no list, is the same on
// every server and population that holds the patient, and a patient never moves between splits when tasks or
// patients are added. A task's variants of patient-level tasks fall in the split of their patient; a task may also be
// marked in task.json as wholly `held-out` (every variant is test: the task never appears in training) or `train`
// (every variant is train: a task for developing agents). A population-level task has one variant, the whole
// population, which cannot be partitioned: unless marked `train` it is held out.
import { createHash } from 'node:crypto';

export const splits = ['train', 'test'] as const;
/** The split of a variant: what an agent may be trained on, and what it is evaluated on. */
export type Split = (typeof splits)[number];

/** What task.json may say (`split`); absent: the task's variants are partitioned by patient. */
export const taskSplitMarks = ['train', 'held-out'] as const;
export type TaskSplitMark = (typeof taskSplitMarks)[number];

/** A task's split as the catalogue shows it: its variants partitioned by patient, or all of them in one split. */
export type TaskSplit = 'by-patient' | TaskSplitMark;

/** What the catalogue, the runner and the OpenEnv sampler filter on: a variant split, or the held-out tasks alone. */
export const splitFilters = ['train', 'test', 'held-out'] as const;
export type SplitFilter = (typeof splitFilters)[number];

/** The share of patients in the test split. */
export const TEST_SHARE = 0.3;
/** Versioned, so a future repartition is a new salt and never silently moves patients. */
const SALT = 'ehr-gym/split/v1:';

/** The patient's split: the first 32 bits of sha256(salt + id) as a fraction of 2^32, test below TEST_SHARE. */
export function patientSplit(patientId: string): Split {
  const h = createHash('sha256').update(SALT + patientId).digest().readUInt32BE(0);
  return h / 2 ** 32 < TEST_SHARE ? 'test' : 'train';
}

/** The task's split from its task.json fields. */
export function taskSplit(spec: { level: 'patient' | 'population'; split?: TaskSplitMark }): TaskSplit {
  if (spec.split) return spec.split;
  return spec.level === 'population' ? 'held-out' : 'by-patient';
}

/** The split of one variant of a task (a Patient id, or `population`). */
export function variantSplit(split: TaskSplit, variant: string): Split {
  if (split === 'train') return 'train';
  if (split === 'held-out') return 'test';
  return patientSplit(variant);
}

/** Whether a task of this split serves the filter: train and test tasks have variants there; held-out is the held-out tasks. */
export function taskInSplit(split: TaskSplit, filter: SplitFilter): boolean {
  if (filter === 'held-out') return split === 'held-out';
  return split === 'by-patient' || (filter === 'train' ? split === 'train' : split === 'held-out');
}

/** Whether a variant belongs to the filter (held-out: the variants of held-out tasks). */
export function variantInSplit(split: TaskSplit, variant: string, filter: SplitFilter): boolean {
  if (filter === 'held-out') return split === 'held-out';
  return variantSplit(split, variant) === filter;
}
