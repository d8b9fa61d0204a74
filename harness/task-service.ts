// The tasks folder as the gym's TaskService (server/gym/task-service.ts): besides a session's setup (TaskFolderSource),
// the catalogue (GET /gym/tasks), each task's variants on the server's population and the grading of a session
// (POST /gym/sessions/{id}/grade). Variants are found and sessions graded by the runner's own code (harness/variants.ts,
// harness/grade.ts), reading the server over in-process HTTP, so a session graded over HTTP gets the runner's verdicts.
// The catalogue shows a task's rubric outline only: checkpoint ids, categories, descriptions and weights, guidelines;
// never the solution, the grader, the expected values it computes, the deliverables or the maintainer's notes.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { FhirClient } from '../contracts/fhir-client.ts';
import { taskSplit } from '../contracts/splits.ts';
import type { Task, TaskSpec } from '../contracts/task.ts';
import type { GradeReport, GradeRequest, LocalServer, TaskCard, TaskService } from '../server/gym/task-service.ts';
import { gradeEpisode } from './grade.ts';
import { GymClient } from './gym-client.ts';
import { TASK_ID, TaskFolderSource } from './task-source.ts';
import { defaultTasksDir, discoverTaskIds, loadTask, readTaskSpec, TaskLoadError } from './task-loader.ts';
import { findVariants, POPULATION_VARIANT } from './variants.ts';

export class TaskFolderService extends TaskFolderSource implements TaskService {
  private readonly loaded = new Map<string, Promise<Task>>();
  private readonly found = new Map<string, Promise<string[]>>();

  constructor(tasksDir: string = defaultTasksDir) {
    super(tasksDir);
  }

  cards(): TaskCard[] {
    return discoverTaskIds(this.tasksDir).flatMap((id) => {
      const card = this.card(id);
      return card ? [card] : [];
    });
  }

  /** A task that does not load (an invalid task.json) is not served, like POST /gym/sessions refuses it. */
  card(id: string): TaskCard | undefined {
    if (!TASK_ID.test(id) || !existsSync(join(this.tasksDir, id, 'task.json'))) return undefined;
    try {
      return cardOf(readTaskSpec(id, this.tasksDir));
    } catch (err) {
      if (err instanceof TaskLoadError) return undefined;
      throw err;
    }
  }

  /** Found once per task and server (the base population is read-only and a task's fixture fixed). */
  async variants(id: string, server: LocalServer): Promise<string[] | undefined> {
    if (!this.card(id)) return undefined;
    let found = this.found.get(id);
    if (!found) {
      found = this.load(id).then((task) => findVariants(task, new GymClient(server.url, server.fetch)));
      this.found.set(id, found);
      // A failed search is not remembered: the next request tries again.
      found.catch(() => this.found.delete(id));
    }
    return found;
  }

  async grade(request: GradeRequest, server: LocalServer): Promise<GradeReport> {
    const task = await this.load(request.task);
    const fhir = new FhirClient(server.url + request.fhirBasePath, { fetch: server.fetch });
    const patient = request.variant === undefined || request.variant === POPULATION_VARIANT ? '' : request.variant;
    const { answer: _answer, ...graded } = await gradeEpisode(task, fhir, {
      now: request.now, patient, answer: request.answer, files: request.files, log: request.log, changes: request.changes,
    });
    return graded;
  }

  private load(id: string): Promise<Task> {
    let task = this.loaded.get(id);
    if (!task) {
      task = loadTask(id, this.tasksDir);
      this.loaded.set(id, task);
      task.catch(() => this.loaded.delete(id));
    }
    return task;
  }
}

function cardOf(spec: TaskSpec): TaskCard {
  return {
    id: spec.id, title: spec.title, specialty: spec.specialty, workflows: spec.workflows, level: spec.level,
    split: taskSplit(spec), continuation: spec.continuation ?? false,
    checkpoints: spec.checkpoints.map((c) => ({ id: c.id, category: c.category, description: c.description, weight: c.weight, critical: c.critical ?? false })),
    guidelines: spec.guidelines.map((g) => ({ title: g.title, ...(g.citation ? { citation: g.citation } : {}), ...(g.url ? { url: g.url } : {}) })),
  };
}

/** The service over the repository's tasks folder, or undefined when there is none (e.g. an installed server). */
export function defaultTaskService(): TaskFolderService | undefined {
  const service = new TaskFolderService();
  return service.available ? service : undefined;
}
