// One episode: session (base + fixture + clock) -> agent acts over HTTP -> log and changes captured -> grader reads
// the final state -> verdicts with evidence -> score.
import { FhirClient } from '../contracts/fhir-client.ts';
import type { GymClient } from './gym-client.ts';
import { gradeEpisode, type RegradeFields } from './grade.ts';
import { instructionFor, POPULATION_VARIANT } from './variants.ts';
import type { Agent, AgentOutcome } from './agents/agent.ts';
import type { WritePolicy } from '../contracts/fhir-client.ts';
import type { EpisodeResult } from './types.ts';
import type { Task } from '../contracts/task.ts';

export interface EpisodeOptions {
  task: Task;
  variant: string;
  trial: number;
  agent: Agent;
  gym: GymClient;
  writePolicy?: WritePolicy;
  /** Keep the session afterwards (for inspection). */
  keepSession?: boolean;
}

export interface Episode {
  result: EpisodeResult;
  outcome: AgentOutcome;
}

export async function runEpisode(options: EpisodeOptions): Promise<Episode> {
  const { task, variant, gym } = options;
  const patient = variant === POPULATION_VARIANT ? '' : variant;
  // task/variant let the server bind the session (its instruction, log and summary name them); now and fixture are
  // sent too, so a server without this tasks folder (or a task copy being checked) runs the episode the same way.
  const session = await gym.createSession({ task: task.spec.id, variant, now: task.spec.now, ...(task.fixture ? { fixture: task.fixture } : {}) });
  try {
    const instruction = instructionFor(task, patient);
    let outcome: AgentOutcome;
    try {
      outcome = await options.agent.run({ task, session, gym, patient, instruction, ...(options.writePolicy ? { writePolicy: options.writePolicy } : {}) });
    } catch (err) {
      outcome = { transcript: [], error: `agent crashed: ${(err as Error).message}` };
    }
    // Captured before the grader reads anything: the grader's own requests are logged after this point.
    const state = await gym.session(session.id);
    const log = await gym.log(session.id);
    const changes = await gym.changes(session.id);
    const submission = state.submission;
    const evidence = {
      now: session.now, patient, answer: submission?.answer, files: submission?.files ?? {}, log, changes,
      ...(outcome.error ? { error: outcome.error } : {}),
    };
    const { graderVersion, ...graded } = await gradeEpisode(task, new FhirClient(session.fhirBaseUrl), evidence);
    const result: EpisodeResult = {
      task: task.spec.id, specialty: task.spec.specialty, workflows: task.spec.workflows, variant, trial: options.trial,
      agent: options.agent.name, session: session.id,
      ...graded,
      ...(outcome.error ? { error: outcome.error } : {}),
      ...(outcome.tokens ? { tokens: outcome.tokens } : {}),
      log, changes, transcript: outcome.transcript,
    };
    // What `ehr-gym grade --results` re-grades from besides the log, changes and answer (harness/grade-command.ts).
    const regradable: EpisodeResult & RegradeFields = { ...result, now: session.now, ...(submission?.files ? { files: submission.files } : {}), graderVersion };
    return { result: regradable, outcome };
  } finally {
    if (!options.keepSession) await gym.deleteSession(session.id).catch(() => undefined);
  }
}
