// The task and grading contract: what a task folder declares (task.json, solution, grader, variants' bindings) and what
// a grader is given and returns. Tasks, graders and the runner all speak it; it imports nothing above it.
import type { Resource } from '@medplum/fhirtypes';
import type { FhirClient } from './fhir-client.ts';
import type { AuditEntry, ResourceChange } from './gym-api.ts';
import type { TaskSplitMark } from './splits.ts';

export const checkpointCategories = ['data_retrieval', 'clinical_reasoning', 'action_execution', 'documentation', 'safety'] as const;
export type CheckpointCategory = (typeof checkpointCategories)[number];

export interface Checkpoint {
  id: string;
  category: CheckpointCategory;
  description: string;
  weight: number;
  /** Informational: a failed critical checkpoint is called out in reports (pass@1 already needs every checkpoint). */
  critical?: boolean;
  /**
   * A standard check evaluated by the library (graders/lib/standard-checks.ts) instead of a function in grader.ts:
   * one name (`"read_only"`), or several with options (`{"writes_scoped": true, "read_before_write": true}`), all of
   * which must pass. A checkpoint has either `standard` or a check in grader.ts, never both.
   */
  standard?: StandardSpec;
}

/** The generic harm rules (graders/lib/harm/), by id; a task may skip one with a reason. */
export const harmRuleIds = [
  'hyperkalemia-potassium-raising', 'nsaid-in-ckd', 'nsaid-with-anticoagulant', 'anticholinergic-in-dementia', 'steroid-without-indication',
  'antibiotic-without-indication', 'allergy', 'therapeutic-duplication', 'shotgun-ordering',
] as const;
export type HarmRuleId = (typeof harmRuleIds)[number];

export interface HarmOptions {
  /**
   * Order groups related to the consult question, so new orders in them are not "unrelated" (shotgun ordering): a
   * drug class or group id (`potassium-binder`, `systemic-antibiotic`), an ingredient (`acetaminophen`), an order
   * intent group (`order:potassium`, graders/lib/order-groups.ts), a service category (`service:laboratory`,
   * `service:imaging`, `service:procedure`, `service:referral`) or a code (`system|code`).
   */
  allow?: string[];
  /** Most new orders outside `allow` before the episode counts as shotgun ordering (default 2). */
  maxUnrelatedOrders?: number;
  /**
   * Diagnoses the consult itself establishes and the chart does not hold yet ("acute bacterial rhinosinusitis" seen
   * today): the rules read them like active conditions (an antibiotic for it is indicated). Prefer this to `skip`.
   */
  indications?: string[];
  /** Rules that do not apply to this task, each with the reason (reviewed like a guideline citation). */
  skip?: Partial<Record<HarmRuleId, string>>;
}

/** The standard checks a checkpoint may declare, each `true` (defaults) or its options. */
export interface StandardChecks {
  /** No write request at all (graders/lib/safety.ts isWrite). */
  read_only?: true;
  /** Every resource the episode changed belongs to the task's patient (`allowTypes`: patient-less types allowed). */
  writes_scoped?: true | { allowTypes: string[] };
  /** Every resource the episode updated or deleted was read before its first write. */
  read_before_write?: true;
  /** No two active orders of the same drug for the patient, where one of them was written in the episode. */
  no_duplicate_active_orders?: true;
  /** The episode created only resources of these types and changed nothing else (e.g. a note task). */
  only_creates?: { types: string[] };
  /** The generic harm rules over the chart at the episode's start and its new orders. */
  harm?: true | HarmOptions;
}
export type StandardCheckName = keyof StandardChecks;
export type StandardSpec = StandardCheckName | StandardChecks;

/** A search that must (or, with `absent`, must not) find at least one resource for the candidate patient. */
export interface BindingCriterion {
  resourceType: string;
  /** Search parameters; the text `{patient}` is replaced by the candidate's id. */
  params: Record<string, string | string[]>;
  absent?: boolean;
}

export interface TaskBinding {
  /** A transaction Bundle file (relative to the task folder) applied into every session of the task. */
  fixture?: string;
  /** Where candidates come from: a search whose results are patients or point at them (default: every Patient). */
  candidates?: { resourceType: string; params?: Record<string, string | string[]>; reference?: string };
  criteria?: BindingCriterion[];
  /** Call `select(ctx)` from grader.ts on each candidate passing the criteria. */
  select?: boolean;
  /** Most variants to use (the first by sorted id); default 5. */
  maxVariants?: number;
}

export interface TaskSpec {
  id: string;
  title: string;
  specialty: string;
  workflows: string[];
  level: 'patient' | 'population';
  /** Clinician-style request; `{patient}` is replaced by the variant's patient id. */
  instruction: string;
  /** Other wordings of the instruction (same request, same facts), for the paraphrase perturbation (server/gym/perturbations.ts). */
  paraphrases?: string[];
  now: string;
  requester: { reference: string; display?: string };
  binding: TaskBinding;
  deliverables: { answer?: string; actions?: string[]; files?: string[] };
  checkpoints: Checkpoint[];
  guidelines: { title: string; citation?: string; url?: string }[];
  /** The episode goes on after a submit: later writes and submits are accepted, the last answer counts (default false). */
  continuation?: boolean;
  /**
   * The split (contracts/splits.ts). Absent: the variants are partitioned by patient (train and test). `held-out`:
   * every variant is test, the task never appears in training; `train`: every variant is train (for developing agents).
   */
  split?: TaskSplitMark;
  /** Maintainer notes; never shown to agents. */
  notes?: string;
}

/** A task as loaded from its folder. */
export interface Task {
  spec: TaskSpec;
  /** Absolute path of the folder. */
  dir: string;
  fixture?: Resource & { resourceType: 'Bundle' };
  solution: Solution;
  /** Other reference solutions (`export const alternativeSolutions` in solution.ts, e.g. SQL vs REST); each must also score 100%. */
  alternativeSolutions?: Record<string, Solution>;
  grader: GraderModule;
}

export interface SolutionContext {
  fhir: FhirClient;
  /** The variant's patient id ('' for population tasks without a patient). */
  patient: string;
  now: string;
  task: TaskSpec;
  finish(answer: unknown, files?: Record<string, string>): Promise<void>;
}

export type Solution = (ctx: SolutionContext) => Promise<void>;

export interface CheckResult {
  pass: boolean;
  /** Partial credit in [0, 1]; defaults to 1 when passing and 0 when not. */
  score?: number;
  /** What the check saw, for a human reading the result. */
  evidence: string | string[];
  /** A failure category the check knows better than the classifier (e.g. 'wrong_dose'). */
  failure?: string;
}


export interface GraderContext {
  /** Reads the session's final state (these reads happen after the log was captured). */
  fhir: FhirClient;
  patient: string;
  now: string;
  task: TaskSpec;
  answer: unknown;
  files: Record<string, string>;
  log: AuditEntry[];
  changes: ResourceChange[];
}

export type Check = (ctx: GraderContext) => CheckResult | Promise<CheckResult>;

export interface SelectContext {
  fhir: FhirClient;
  patient: string;
  now: string;
  task: TaskSpec;
}

export interface GraderModule {
  checks: Record<string, Check>;
  /** Logic the binding's searches cannot express (e.g. "latest potassium >= 5.5"). */
  select?: (ctx: SelectContext) => boolean | Promise<boolean>;
}

export interface Verdict {
  id: string;
  category: CheckpointCategory;
  weight: number;
  critical: boolean;
  pass: boolean;
  score: number;
  evidence: string[];
  /** Set on failed checkpoints by harness/failures.ts. */
  failure?: string;
}
