// The tasks folder as the gym's TaskSource (server/gym/sessions.ts): `POST /gym/sessions {task, variant}` gets the
// task's clock, fixture and instruction, and whether its episode continues after a submit. Only those leave the
// folder: checkpoints, notes, solution.ts and grader.ts are never read here, so nothing a session can reach holds
// grader material.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Bundle } from '@medplum/fhirtypes';
import { badRequest } from '../resources/outcome.ts';
import type { TaskSetup, TaskSource } from '../server/gym/sessions.ts';
import { defaultTasksDir, readTaskSpec, TaskLoadError } from './task-loader.ts';
import { instructionFor, POPULATION_VARIANT } from './variants.ts';
import type { Task } from '../contracts/task.ts';

/** `<specialty>/<slug>`: also keeps a task id from naming a path outside the tasks folder. */
export const TASK_ID = /^[a-z0-9][a-z0-9-]*\/[a-z0-9][a-z0-9-]*$/;
/** A variant of a patient-level task is a Patient id (FHIR id syntax). */
const PATIENT_ID = /^[A-Za-z0-9\-.]{1,64}$/;

export class TaskFolderSource implements TaskSource {
  constructor(readonly tasksDir: string = defaultTasksDir) {}

  /** Whether the folder exists (buildApp callers use the source only then). */
  get available(): boolean {
    return existsSync(this.tasksDir);
  }

  /** Undefined for an unknown task; a 400 for a variant the task cannot take or a task folder that does not load. */
  resolve(task: string, variant: string | undefined): TaskSetup | undefined {
    if (!TASK_ID.test(task) || !existsSync(join(this.tasksDir, task, 'task.json'))) return undefined;
    let spec;
    try {
      spec = readTaskSpec(task, this.tasksDir);
    } catch (err) {
      if (err instanceof TaskLoadError) throw badRequest(`Task '${task}' is not valid on this server`, ['task']);
      throw err;
    }
    let patient = '';
    if (spec.level === 'population') {
      if (variant !== undefined && variant !== POPULATION_VARIANT) throw badRequest(`Task '${task}' is population-level: its only variant is '${POPULATION_VARIANT}'`, ['variant']);
    } else {
      if (variant === undefined) throw badRequest(`Task '${task}' is patient-level: give the variant (a Patient id)`, ['variant']);
      if (!PATIENT_ID.test(variant)) throw badRequest('variant must be a Patient id', ['variant']);
      patient = variant;
    }
    // Bound as the runner binds it (harness/variants.ts); a template that forgets {patient} still names the patient.
    const instruction = bind(spec.instruction, patient);
    const setup: TaskSetup = { now: spec.now, instruction, ...(spec.continuation ? { continuation: true } : {}) };
    if (spec.paraphrases?.length) setup.paraphrases = spec.paraphrases.map((text) => bind(text, patient));
    if (spec.binding.fixture) setup.fixture = this.fixture(task, spec.binding.fixture);
    return setup;
  }

  private fixture(task: string, file: string): Bundle {
    try {
      return JSON.parse(readFileSync(join(this.tasksDir, task, file), 'utf8')) as Bundle;
    } catch {
      throw badRequest(`Task '${task}' has no readable fixture on this server`, ['task']);
    }
  }
}

/** An instruction (or a paraphrase) bound as the runner binds it (harness/variants.ts); one that forgets {patient} still names the patient. */
function bind(text: string, patient: string): string {
  const bound = instructionFor({ spec: { instruction: text } } as Task, patient);
  return patient && !text.includes('{patient}') ? `${bound} (Patient/${patient})` : bound;
}

/** The source over the repository's tasks folder, or undefined when there is none (e.g. an installed server). */
export function defaultTaskSource(): TaskFolderSource | undefined {
  const source = new TaskFolderSource();
  return source.available ? source : undefined;
}
