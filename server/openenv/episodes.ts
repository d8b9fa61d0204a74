// OpenEnv episodes over gym sessions: an episode is one gym session of a task variant (server/gym/sessions.ts), its
// steps are tool calls through the same executor as MCP and the gym tools route (server/tools/), and its final reward
// is the gym grade of that session (POST /gym/sessions/{id}/grade, reached in process), so the reward a trainer gets
// is the grade the gym API and `ehr-gym run` give for the same actions. The HTTP routes and the WebSocket
// (./routes.ts, ./websocket.ts) are two transports over this one record of episodes.
import { createHash, randomInt } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { taskInSplit, variantInSplit, type SplitFilter } from '../../contracts/splits.ts';
import type { Verdict } from '../../contracts/task.ts';
import { sessionChanges } from '../gym/changes.ts';
import type { LiveSession, SessionManager } from '../gym/sessions.ts';
import { isTaskService, localServer, type GradeReport, type LocalServer, type TaskService } from '../gym/task-service.ts';
import { injectClient, ToolExecutor } from '../tools/executor.ts';
import { agentTools, findTool, toMcpTool } from '../tools/index.ts';
import type { HttpClient } from '../tools/tool.ts';
import { OpenEnvError, type Action, type ResetParams } from './schemas.ts';

export type RewardMode = 'final' | 'shaped';

export interface CheckpointResult {
  id: string;
  category: string;
  weight: number;
  critical: boolean;
  pass: boolean;
  score: number;
}

/** What OpenEnv's reset and step answer: the observation, reward (null until there is one) and done. */
export interface StepResult {
  observation: Observation;
  reward: number | null;
  done: boolean;
}

export interface Observation {
  episode_id: string;
  step_count: number;
  task: string;
  variant: string | null;
  instruction: string | null;
  now: string;
  tools: unknown[] | null;
  tool_name: string | null;
  result: string | null;
  is_error: boolean;
  error: { error_type: 'tool_not_found' | 'infrastructure'; message: string } | null;
  pass: boolean | null;
  score: number | null;
  checkpoints: CheckpointResult[] | null;
  grader_version: string | null;
  shaped_reward: number | null;
}

interface Episode {
  id: string;
  sessionId: string;
  task: string;
  variant?: string;
  seed: number;
  split?: SplitFilter;
  rewardMode: RewardMode;
  stepCount: number;
  done: boolean;
  final?: { reward: number; pass: boolean };
  gradeError?: string;
  /** reward_mode shaped: the checkpoints satisfied so far, those satisfied at the start included (they earn nothing). */
  satisfied: Set<string>;
  /** Steps of one episode run one at a time (two HTTP clients may step the same episode). */
  queue: Promise<unknown>;
}

export class OpenEnvEpisodes {
  private readonly episodes = new Map<string, Episode>();
  private readonly tools: HttpClient;
  private readonly local: LocalServer;

  constructor(private readonly sessions: SessionManager, private readonly root: FastifyInstance) {
    this.tools = injectClient(root);
    this.local = localServer(root, sessions.internalKey);
  }

  /**
   * Starts an episode in a new gym session (created through POST /gym/sessions in process, as `client`, so the
   * per-client limits and the variant check are the gym API's). The task and variant not given are drawn from the seed.
   */
  async reset(params: ResetParams, client: string): Promise<StepResult> {
    const service = this.taskService();
    const seed = params.seed ?? randomInt(0, 2 ** 31);
    const task = params.task ?? (await this.sampleTask(service, seed, params.split));
    const card = service.card(task);
    if (!card) throw new OpenEnvError(400, `No task '${task}' on this server (GET /gym/tasks lists them)`);
    const variant = params.variant ?? (await this.sampleVariant(service, task, seed, params.split));
    if (params.split !== undefined && !variantInSplit(card.split, variant ?? '', params.split)) {
      throw new OpenEnvError(400, `Task '${task}'${variant !== undefined ? ` variant '${variant}'` : ''} is not of split '${params.split}'`);
    }
    const created = await this.root.inject({
      method: 'POST', url: '/gym/sessions', remoteAddress: client,
      headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ task, ...(variant !== undefined ? { variant } : {}), ...(params.perturbations ? { perturbations: params.perturbations } : {}) }),
    });
    if (created.statusCode !== 201) throw gymRefusal(created.statusCode, created.body, created.headers['retry-after']);
    const body = created.json() as { id: string; now: string; instruction?: string };

    const episode: Episode = {
      id: params.episode_id ?? body.id, sessionId: body.id, task, ...(variant !== undefined ? { variant } : {}), seed,
      ...(params.split !== undefined ? { split: params.split } : {}), rewardMode: params.reward_mode ?? 'final',
      stepCount: 0, done: false, satisfied: new Set(), queue: Promise.resolve(),
    };
    if (episode.rewardMode === 'shaped') {
      // What the untouched chart already satisfies (a "no wrong order" checkpoint, say) is no progress of the agent's.
      try {
        for (const v of (await this.gradePartial(episode)).verdicts) if (v.pass) episode.satisfied.add(v.id);
      } catch (err) {
        this.sessions.delete(body.id);
        throw new OpenEnvError(503, `Infrastructure error: the start of a shaped episode could not be graded (${(err as Error).message})`);
      }
    }
    // No await from here to the set: of two resets reusing one id, the later replaces the earlier, never orphans it.
    if (this.episodes.has(episode.id)) this.close(episode.id);
    this.prune();
    this.episodes.set(episode.id, episode);
    return {
      observation: {
        ...this.blank(episode), instruction: body.instruction ?? null, now: body.now,
        tools: agentTools.map((t) => toMcpTool(t.definition)),
      },
      reward: null,
      done: false,
    };
  }

  /** One action: a tool call, or the final answer (the `finish` tool), which ends the episode and grades it. */
  step(episodeId: string, action: Action): Promise<StepResult> {
    const episode = this.require(episodeId);
    const run = episode.queue.then(() => this.stepNow(episode, action));
    episode.queue = run.catch(() => undefined);
    return run;
  }

  state(episodeId: string | undefined): Record<string, unknown> {
    // OpenEnv's stateless GET /state describes a fresh environment: no episode, no step.
    if (episodeId === undefined) return { episode_id: null, step_count: 0 };
    const e = this.require(episodeId);
    return {
      episode_id: e.id, step_count: e.stepCount, session_id: e.sessionId, task: e.task, variant: e.variant ?? null, seed: e.seed,
      split: e.split ?? null, reward_mode: e.rewardMode, done: e.done, reward: e.final?.reward ?? null, pass: e.final?.pass ?? null,
      grade_error: e.gradeError ?? null, perturbations: this.sessions.get(e.sessionId)?.meta.perturbations ?? null,
    };
  }

  /**
   * Ends an episode and deletes its gym session (a WebSocket closing, or a reset reusing the id). With `sessionId`,
   * only if the id still names that session: a client-chosen id may have been taken over by another reset since.
   */
  close(episodeId: string, sessionId?: string): void {
    const episode = this.episodes.get(episodeId);
    if (!episode || (sessionId !== undefined && episode.sessionId !== sessionId)) return;
    this.episodes.delete(episodeId);
    if (this.sessions.has(episode.sessionId)) this.sessions.delete(episode.sessionId);
  }

  /** The gym session an episode id names now (undefined for none). */
  sessionOf(episodeId: string): string | undefined {
    return this.episodes.get(episodeId)?.sessionId;
  }

  has(episodeId: string): boolean {
    return this.episodes.has(episodeId) && this.sessions.has(this.episodes.get(episodeId)!.sessionId);
  }

  private async stepNow(episode: Episode, action: Action): Promise<StepResult> {
    if (episode.done) throw new OpenEnvError(409, `Episode '${episode.id}' is over${episode.final ? ` (reward ${episode.final.reward})` : ''}; reset for another`);
    const session = this.liveSession(episode);
    if (session.meta.ended) throw new OpenEnvError(409, `Episode '${episode.id}' was ended through the gym API (its session was submitted or graded); reset for another`);
    const [name, args] = action.type === 'final_answer' ? ['finish', { answer: action.answer }] : [action.tool_name, action.arguments ?? {}];
    episode.stepCount++;
    const observation = this.blank(episode);
    observation.tool_name = name;
    if (!findTool(name)) {
      const message = `Unknown tool '${name}'. Tools: ${agentTools.map((t) => t.definition.name).join(', ')}`;
      // Nothing ran, so nothing became satisfied: a shaped episode's reward is 0.
      const shaped = episode.rewardMode === 'shaped' ? 0 : null;
      return { observation: { ...observation, result: message, is_error: true, error: { error_type: 'tool_not_found', message }, shaped_reward: shaped }, reward: shaped, done: false };
    }
    let result;
    try {
      result = await new ToolExecutor(this.tools, session.meta.id, session.meta.toolOptions).call(name, args);
    } catch (err) {
      episode.stepCount--;
      throw new OpenEnvError(500, `Infrastructure error: the tool call failed (${(err as Error).message}); the step was not taken`);
    }
    observation.result = result.text;
    observation.is_error = result.isError;
    if (result.finished) return this.finish(episode, observation);
    if (episode.rewardMode === 'final') return { observation, reward: null, done: false };
    try {
      const shaped = this.newlySatisfied(episode, (await this.gradePartial(episode)).verdicts);
      return { observation: { ...observation, shaped_reward: shaped }, reward: shaped, done: false };
    } catch (err) {
      // The step happened; only its reward could not be computed, and a failure never becomes a reward.
      return { observation: { ...observation, error: { error_type: 'infrastructure', message: `Shaped reward unavailable: ${(err as Error).message}` } }, reward: null, done: false };
    }
  }

  /** The episode ended with its answer: its grade is the gym API's for this session. */
  private async finish(episode: Episode, observation: Observation): Promise<StepResult> {
    episode.done = true;
    const graded = await this.root.inject({ method: 'POST', url: `/gym/sessions/${episode.sessionId}/grade` })
      .catch((err: Error) => ({ statusCode: 0, body: err.message, json: () => undefined }));
    if (graded.statusCode !== 200) {
      episode.gradeError = `POST /gym/sessions/${episode.sessionId}/grade answered ${graded.statusCode || 'nothing'}: ${diagnostics(graded.body)}`;
      throw new OpenEnvError(503, `Infrastructure error: the episode ended but could not be graded, so it has no reward (${episode.gradeError})`);
    }
    const report = graded.json() as GradeReport;
    episode.final = { reward: report.score, pass: report.pass };
    const shaped = episode.rewardMode === 'shaped' ? this.newlySatisfied(episode, report.verdicts) : null;
    return {
      observation: {
        ...observation, pass: report.pass, score: report.score, checkpoints: report.verdicts.map(checkpointOf),
        grader_version: report.graderVersion, shaped_reward: shaped,
      },
      reward: report.score,
      done: true,
    };
  }

  /**
   * The grade of the state so far, without ending the episode (the gym grade route would end it): the same request
   * the grade route builds, over the log and changes up to now and no answer yet. The grader's reads are internal
   * requests, so they do not enter the log the final grade is given.
   */
  private gradePartial(episode: Episode): Promise<GradeReport> {
    const session = this.liveSession(episode);
    const id = session.meta.id;
    return this.taskService().grade({
      task: episode.task, ...(episode.variant !== undefined ? { variant: episode.variant } : {}), now: session.meta.now,
      answer: undefined, files: {}, log: this.sessions.audit.entries(id, 0, Number.MAX_SAFE_INTEGER),
      changes: sessionChanges(session.repo, session.meta.watermark), fhirBasePath: `/fhir/_session/${id}`,
    }, this.local);
  }

  /** Normalized weight of the checkpoints passing now that never passed before in this episode; they are remembered. */
  private newlySatisfied(episode: Episode, verdicts: Verdict[]): number {
    const total = verdicts.reduce((s, v) => s + v.weight, 0);
    let gained = 0;
    for (const v of verdicts) {
      if (v.pass && !episode.satisfied.has(v.id)) {
        episode.satisfied.add(v.id);
        gained += v.weight;
      }
    }
    return total === 0 ? 0 : gained / total;
  }

  private blank(episode: Episode): Observation {
    return {
      episode_id: episode.id, step_count: episode.stepCount, task: episode.task, variant: episode.variant ?? null,
      instruction: null, now: this.liveSession(episode).meta.now, tools: null, tool_name: null, result: null, is_error: false,
      error: null, pass: null, score: null, checkpoints: null, grader_version: null, shaped_reward: null,
    };
  }

  /** Sessions expire when idle (server/gym/sessions.ts); their episodes go with them. */
  private require(episodeId: string): Episode {
    const episode = this.episodes.get(episodeId);
    if (!episode || !this.sessions.has(episode.sessionId)) {
      if (episode) this.episodes.delete(episodeId);
      throw new OpenEnvError(404, `No episode '${episodeId}' (unknown, closed or expired); POST /reset starts one`);
    }
    return episode;
  }

  private liveSession(episode: Episode): LiveSession {
    const session = this.sessions.get(episode.sessionId);
    if (!session) throw new OpenEnvError(404, `No episode '${episode.id}' (its session expired); POST /reset starts one`);
    return session;
  }

  private prune(): void {
    for (const [id, episode] of this.episodes) if (!this.sessions.has(episode.sessionId)) this.episodes.delete(id);
  }

  private taskService(): TaskService {
    const tasks = this.sessions.tasks;
    if (!isTaskService(tasks)) throw new OpenEnvError(400, 'This server was started without a tasks folder: it has no task to start an episode of');
    return tasks;
  }

  /** The seed's task: tasks (of the split) in id order from a seeded start, the first with a variant (of the split) on this server. */
  private async sampleTask(service: TaskService, seed: number, split: SplitFilter | undefined): Promise<string> {
    const cards = service.cards().filter((c) => split === undefined || taskInSplit(c.split, split));
    if (cards.length === 0) throw new OpenEnvError(400, split === undefined ? 'This server has no tasks' : `No task of split '${split}' on this server`);
    const start = draw(seed, 'task', cards.length);
    for (let i = 0; i < cards.length; i++) {
      const card = cards[(start + i) % cards.length];
      if ((await this.variantsOf(service, card.id, split)).length > 0) return card.id;
    }
    throw new OpenEnvError(400, `No task has a variant${split === undefined ? '' : ` of split '${split}'`} on this server's population`);
  }

  private async sampleVariant(service: TaskService, task: string, seed: number, split: SplitFilter | undefined): Promise<string | undefined> {
    const variants = await this.variantsOf(service, task, split);
    // None: POST /gym/sessions refuses the session and says why.
    return variants.length === 0 ? undefined : variants[draw(seed, `variant:${task}`, variants.length)];
  }

  /** The task's variants on this server, of the split when given (contracts/splits.ts). */
  private async variantsOf(service: TaskService, task: string, split: SplitFilter | undefined): Promise<string[]> {
    const variants = (await service.variants(task, this.local)) ?? [];
    const card = service.card(task);
    return split === undefined || !card ? variants : variants.filter((v) => variantInSplit(card.split, v, split));
  }
}

/** A deterministic index in [0, n) from the seed and what is drawn (independent draws for task and variant). */
function draw(seed: number, what: string, n: number): number {
  return createHash('sha256').update(`${seed}:${what}`).digest().readUIntBE(0, 6) % n;
}

function checkpointOf(v: Verdict): CheckpointResult {
  return { id: v.id, category: v.category, weight: v.weight, critical: v.critical, pass: v.pass, score: v.score };
}

/** The gym API's refusal (an OperationOutcome) as this surface's error, with its status and Retry-After. */
function gymRefusal(status: number, body: string, retryAfter: unknown): OpenEnvError {
  return new OpenEnvError(status, diagnostics(body), typeof retryAfter === 'string' ? { 'retry-after': retryAfter } : {});
}

function diagnostics(body: string): string {
  try {
    const parsed = JSON.parse(body) as { issue?: { diagnostics?: string }[] };
    return parsed.issue?.map((i) => i.diagnostics).filter(Boolean).join('; ') || body;
  } catch {
    return body;
  }
}
