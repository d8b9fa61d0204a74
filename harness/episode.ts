// One episode: session (base + fixture + clock) -> agent acts over HTTP -> log and changes captured -> grader reads
// the final state -> verdicts with evidence -> score. Timing, the model agent's record (turns, usage, retries, cost,
// tools offered, settings) and provenance are kept with it. When the infrastructure failed (the gym server, or the
// model API after its retries) the episode's outcome is `infra_error`: recorded, but not counted for or against the agent.
import { FhirClient } from '../contracts/fhir-client.ts';
import { isGymInfraFailure, type GymClient, type SessionInfo } from './gym-client.ts';
import { gradeEpisode, graderVersion, type RegradeFields } from './grade.ts';
import { taskVersion, type RunProvenance } from './provenance.ts';
import { instructionFor, POPULATION_VARIANT } from './variants.ts';
import type { Agent, AgentOutcome } from './agents/agent.ts';
import type { WritePolicy } from '../contracts/fhir-client.ts';
import type { EpisodeResult, Price, Provenance, TokenUsage } from './types.ts';
import type { Task } from '../contracts/task.ts';
import type { PerturbationRequest } from '../contracts/perturbations.ts';
import { retryInjectedFaults } from './fault-retry.ts';

export interface EpisodeOptions {
  task: Task;
  variant: string;
  trial: number;
  agent: Agent;
  gym: GymClient;
  writePolicy?: WritePolicy;
  /** Keep the session afterwards (for inspection). */
  keepSession?: boolean;
  /** The server and population the run uses (recorded with the episode). */
  provenance?: RunProvenance;
  /** USD per million input/output tokens, for the episode's cost. */
  price?: Price;
  /** Robustness perturbations of the episode's session (server/gym/perturbations.ts). */
  perturbations?: PerturbationRequest;
}

export interface Episode {
  result: EpisodeResult;
  outcome: AgentOutcome;
}

/** USD for the tokens at the price. */
export function costOf(tokens: TokenUsage, price: Price): number {
  return (tokens.prompt * price.inputPerMillion + tokens.completion * price.outputPerMillion) / 1_000_000;
}

/** What a model agent reported about its run, as the episode records it. */
function agentRecord(outcome: AgentOutcome, price?: Price): Partial<EpisodeResult> {
  return {
    ...(outcome.error ? { error: outcome.error } : {}),
    ...(outcome.truncatedFinalReply ? { truncatedFinalReply: true } : {}),
    ...(outcome.tokens ? { tokens: outcome.tokens } : {}),
    ...(outcome.tokens && price ? { cost: costOf(outcome.tokens, price) } : {}),
    ...(outcome.turns ? { turns: outcome.turns, retries: outcome.turns.reduce((n, t) => n + t.retries.length, 0) } : {}),
    ...(outcome.toolsOffered ? { toolsOffered: outcome.toolsOffered } : {}),
    ...(outcome.settings ? { settings: outcome.settings } : {}),
  };
}

export async function runEpisode(options: EpisodeOptions): Promise<Episode> {
  const { task, variant, gym } = options;
  const patient = variant === POPULATION_VARIANT ? '' : variant;
  const startedAt = new Date();
  const clock = performance.now();
  const identity = {
    task: task.spec.id, specialty: task.spec.specialty, workflows: task.spec.workflows, variant, trial: options.trial, agent: options.agent.name,
  };
  const timing = () => ({ startedAt: startedAt.toISOString(), endedAt: new Date().toISOString(), durationMs: Math.round(performance.now() - clock) });
  const provenance = (graderVersion: string): Provenance | undefined => (options.provenance ? { ...options.provenance, taskVersion: taskVersion(task), graderVersion } : undefined);
  /** An episode the infrastructure ended: nothing graded, nothing counted against the agent. */
  const infraEpisode = (infraError: string, session: string, outcome: AgentOutcome): Episode => ({
    outcome,
    result: {
      ...identity, session, pass: false, outcome: 'infra_error', infraError, ...timing(), score: 0, verdicts: [], answer: undefined,
      toolCalls: 0, writes: 0, codeLookupMisses: [], ...agentRecord(outcome, options.price), log: [], changes: [], transcript: outcome.transcript,
      ...(options.provenance ? { provenance: provenance(graderVersion(task))! } : {}),
    },
  });
  let session: SessionInfo;
  try {
    // task/variant let the server bind the session (its instruction, log and summary name them); now and fixture are
    // sent too, so a server without this tasks folder (or a task copy being checked) runs the episode the same way.
    session = await gym.createSession({
      task: task.spec.id, variant, now: task.spec.now, ...(task.fixture ? { fixture: task.fixture } : {}),
      ...(options.perturbations ? { perturbations: options.perturbations } : {}),
    });
  } catch (err) {
    return infraEpisode(`gym session not created: ${(err as Error).message}`, '', { transcript: [] });
  }
  try {
    // A paraphrase perturbation words the request differently: the session's instruction is then the one to give.
    const instruction = session.perturbations?.paraphrase?.index != null && session.instruction ? session.instruction : instructionFor(task, patient);
    let outcome: AgentOutcome;
    try {
      outcome = await options.agent.run({ task, session, gym, patient, instruction, ...(options.writePolicy ? { writePolicy: options.writePolicy } : {}) });
    } catch (err) {
      // A gym server failure under a custom agent is still the server's; anything else the agent threw is its own.
      outcome = isGymInfraFailure(err)
        ? { transcript: [], infraError: `gym server failed: ${(err as Error).message}` }
        : { transcript: [], error: `agent crashed: ${(err as Error).message}` };
    }
    let state: Awaited<ReturnType<GymClient['session']>>;
    let log: Awaited<ReturnType<GymClient['log']>>;
    let changes: Awaited<ReturnType<GymClient['changes']>>;
    try {
      // Captured before the grader reads anything: the grader's own requests are logged after this point.
      state = await gym.session(session.id);
      log = await gym.log(session.id);
      changes = await gym.changes(session.id);
    } catch (err) {
      return infraEpisode(`gym session record not read: ${(err as Error).message}`, session.id, outcome);
    }
    const submission = state.submission;
    const evidence = {
      now: session.now, patient, answer: submission?.answer, files: submission?.files ?? {}, log, changes,
      ...(outcome.error ? { error: outcome.error } : {}),
    };
    // An infrastructure-ended episode is still graded for the record, but its failures are not the agent's.
    // Injected API faults are the agent's weather, not the grader's: its reads retry them.
    const graderFetch = session.perturbations?.faults ? retryInjectedFaults(globalThis.fetch) : undefined;
    const { graderVersion: version, ...graded } = await gradeEpisode(task, new FhirClient(session.fhirBaseUrl, graderFetch ? { fetch: graderFetch } : {}), evidence);
    // A check that threw may have met a failing server rather than a grader bug: if the gym no longer answers for the
    // session, the verdicts say nothing about the agent.
    if (graded.verdicts.some((v) => v.evidence.some((e) => e.startsWith('grader error')))) {
      const serverDown = await gym.session(session.id).then(() => undefined, (err: unknown) => (isGymInfraFailure(err) ? (err as Error).message : undefined));
      if (serverDown !== undefined && !outcome.infraError) outcome = { ...outcome, infraError: `gym server failed during grading: ${serverDown}` };
    }
    if (outcome.infraError) for (const v of graded.verdicts) if (!v.pass) v.failure = 'infra_error';
    const result: EpisodeResult = {
      ...identity, session: session.id,
      ...graded,
      outcome: outcome.infraError ? 'infra_error' : graded.pass ? 'passed' : 'failed',
      ...(outcome.infraError ? { infraError: outcome.infraError } : {}),
      ...timing(),
      ...agentRecord(outcome, options.price),
      ...(options.provenance ? { provenance: provenance(version)! } : {}),
      log, changes, transcript: outcome.transcript, ...(session.perturbations ? { perturbations: session.perturbations } : {}),
    };
    // What `ehr-gym grade --results` re-grades from besides the log, changes and answer (harness/grade-command.ts).
    const regradable: EpisodeResult & RegradeFields = { ...result, now: session.now, ...(submission?.files ? { files: submission.files } : {}), graderVersion: version };
    return { result: regradable, outcome };
  } finally {
    if (!options.keepSession) await gym.deleteSession(session.id).catch(() => undefined);
  }
}
