// The session manager: gym sessions are sandboxes over the read-only base (resources/storage/sandbox.ts).
// Creating one writes only its metadata row; resetting or deleting one removes its overlay rows and audit rows,
// so every lifecycle step costs O(writes in that session), never O(base).
import { randomBytes } from 'node:crypto';
import type { Bundle } from '@medplum/fhirtypes';
import { Repository } from '../../resources/storage/repository.ts';
import { DEFAULT_SANDBOX, makeSandbox, virtualClock } from '../../resources/storage/sandbox.ts';
import type { Store } from '../../resources/storage/store.ts';
import { badRequest, conflict, FhirError, issue, notFound } from '../../resources/outcome.ts';
import type { ServerContext } from '../fhir-request.ts';
import { AuditLog, defaultAuditLimits, type AuditLimits } from './audit-log.ts';
import { CreationLimiter, defaultFairUse, type FairUseSettings } from './fair-use.ts';
import { historyWatermark } from './changes.ts';
import { applyFixture, assertFixtureShape } from './fixture.ts';
import { isWellFormedSessionId, newSessionId } from './session-id.ts';
import { definite, type PerturbationRequest, type Perturbations } from '../../contracts/perturbations.ts';
import { applyChartNoise, pickParaphrase } from './perturbations.ts';

export interface GymSettings extends FairUseSettings {
  /** Live sessions allowed at once, over all clients; one more is a 429. */
  maxSessions: number;
  /** A session untouched this long is removed. */
  idleTtlMs: number;
  /** How often expired sessions are swept (0: only when sessions are created or listed). */
  sweepIntervalMs: number;
  /** Wall time in ms, for idle expiry and the creation rate (tests pass their own). */
  wallTime: () => number;
  /** What each session's audit log keeps (body prefixes, total size). */
  audit: AuditLimits;
  /** This server's replica id (`serve --replica-id`), put in front of every session id it creates; see session-id.ts. */
  replicaId?: string;
}

/** GymSettings as buildApp takes them: any subset, the audit limits too. */
export type GymOptions = Partial<Omit<GymSettings, 'audit'>> & { audit?: Partial<AuditLimits> };

export const defaultGymSettings: GymSettings = {
  maxSessions: 1000,
  idleTtlMs: 60 * 60 * 1000,
  sweepIntervalMs: 60 * 1000,
  wallTime: () => Date.now(),
  ...defaultFairUse,
  audit: defaultAuditLimits,
};

/** For a server only its owner uses (the benchmark runner's in-process server, benches): no per-client limits. */
export const noClientLimits: Partial<FairUseSettings> = { maxSessionsPerClient: Infinity, sessionCreateBurst: Infinity };

/** How tool results are rendered for the model; chosen per session and recorded with it. */
export interface ToolOptions {
  /** Decode base64 `attachment.data` of text media types into `attachment.decodedText`. */
  decodeAttachments: boolean;
  /** Cut tool results longer than this many characters (null: never). */
  maxResultChars: number | null;
}

export const defaultToolOptions: ToolOptions = { decodeAttachments: true, maxResultChars: null };

/** What a task contributes to a session (filled by the task registry once it exists). */
export interface TaskSetup {
  now?: string;
  fixture?: Bundle;
  instruction?: string;
  /** The episode goes on after a submit (the task says so); otherwise the first submit ends it. */
  continuation?: boolean;
  /** Other wordings of the instruction, bound like it (a paraphrase perturbation picks one: ./perturbations.ts). */
  paraphrases?: string[];
}

export interface TaskSource {
  /** The setup of a task variant; undefined for an unknown task (a 400). */
  resolve(task: string, variant: string | undefined): TaskSetup | undefined;
}

export interface SessionRequest {
  task?: string;
  variant?: string;
  now?: string;
  fixture?: unknown;
  toolOptions?: Partial<ToolOptions>;
  perturbations?: PerturbationRequest;
}

export interface Submission {
  answer: unknown;
  files?: Record<string, string>;
  /** Session clock at submission. */
  submittedAt: string;
}

/** Where a session's episode ended: its first submit, or a grade before any. */
export interface EpisodeEnd {
  /** Session clock at the end. */
  at: string;
  /** The last audit entry of the episode: what the session's grader is given stops there. */
  logSeq: number;
  /** Whether it has been graded (a graded session cannot be reset: its grade showed the grader's evidence). */
  graded?: boolean;
}

export interface SessionMeta {
  id: string;
  task?: string;
  variant?: string;
  instruction?: string;
  /** The session clock's starting instant. */
  now: string;
  /** Wall-clock creation time. */
  createdAt: string;
  fixture?: Bundle;
  toolOptions: ToolOptions;
  submission?: Submission;
  /** Set when the episode ended: later writes to its FHIR base and later submits answer 409. */
  ended?: EpisodeEnd;
  /** A submit does not end the episode (the task allows continuation); a grade still does. */
  continuation?: boolean;
  /** resource_history position after the fixture: later rows are the episode's changes. */
  watermark: number;
  /** Who created it (server/gym/fair-use.ts), for the per-client quota; never shown in an answer. */
  client?: string;
  /** Robustness perturbations asked for and applied (./perturbations.ts). */
  perturbations?: Perturbations;
}

export interface LiveSession {
  meta: SessionMeta;
  repo: Repository;
  lastActive: number;
  persistedActive: number;
}

type SessionRow = { id: string; meta: string; last_active: number };

const SCHEMA = `
CREATE TABLE IF NOT EXISTS gym_session (id TEXT PRIMARY KEY, meta TEXT NOT NULL, last_active INTEGER NOT NULL);
`;

export class SessionManager {
  readonly audit: AuditLog;
  readonly settings: GymSettings;
  private readonly live = new Map<string, LiveSession>();
  private readonly defaultSession: LiveSession;
  private readonly stmts;
  private readonly timer: NodeJS.Timeout | undefined;
  private readonly limiter: CreationLimiter;
  /** Marks the server's own in-process requests (server/gym/task-service.ts): a secret of this process. */
  readonly internalKey = randomBytes(18).toString('base64url');

  constructor(
    private readonly store: Store,
    private readonly context: ServerContext,
    defaultRepository: Repository,
    settings: GymOptions = {},
    readonly tasks?: TaskSource,
  ) {
    this.settings = { ...defaultGymSettings, ...settings, audit: { ...defaultAuditLimits, ...settings.audit } };
    store.db.exec(SCHEMA);
    this.audit = AuditLog.forStore(store, this.settings.audit);
    this.limiter = new CreationLimiter(this.settings, this.settings.wallTime);
    const db = store.db;
    this.stmts = {
      all: db.prepare<[], SessionRow>('SELECT * FROM gym_session'),
      upsert: db.prepare(
        `INSERT INTO gym_session (id, meta, last_active) VALUES (?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET meta = excluded.meta, last_active = excluded.last_active`),
      touch: db.prepare('UPDATE gym_session SET last_active = ? WHERE id = ?'),
      remove: db.prepare('DELETE FROM gym_session WHERE id = ?'),
    };
    const now = this.settings.wallTime();
    this.defaultSession = {
      meta: { id: DEFAULT_SANDBOX, now: defaultRepository.now.toISOString(), createdAt: new Date(now).toISOString(), toolOptions: { ...defaultToolOptions }, watermark: 0 },
      repo: defaultRepository,
      lastActive: now,
      persistedActive: now,
    };
    // Sessions survive a restart: their rows are in the same database file.
    for (const row of this.stmts.all.all()) this.live.set(row.id, this.revive(JSON.parse(row.meta) as SessionMeta, row.last_active));
    this.sweep();
    if (this.settings.sweepIntervalMs > 0) {
      this.timer = setInterval(() => this.sweep(), this.settings.sweepIntervalMs);
      this.timer.unref();
    }
  }

  /**
   * POST /gym/sessions. `baseUrl` is the FHIR base the fixture's references are resolved against. `client` (the
   * caller's address) is held to the per-client quota and creation rate; in-process callers leave it out.
   */
  create(request: SessionRequest, baseUrlOf: (id: string) => string, client?: string): LiveSession {
    const spec = this.specFrom(request);
    this.sweep();
    if (client !== undefined) this.limiter.admit(client, this.liveOf(client));
    if (this.live.size >= this.settings.maxSessions) {
      throw new FhirError(429, [issue('error', 'throttled', `At most ${this.settings.maxSessions} sessions may be live at once; delete one or wait for idle ones to expire`)],
        { 'retry-after': String(Math.ceil(Math.min(this.settings.idleTtlMs, 60_000) / 1000)) });
    }
    let id = newSessionId(this.settings.replicaId);
    while (this.live.has(id)) id = newSessionId(this.settings.replicaId);
    const wall = this.settings.wallTime();
    const meta: SessionMeta = { id, ...spec, createdAt: new Date(wall).toISOString(), watermark: 0, ...(client !== undefined ? { client } : {}) };
    const session: LiveSession = { meta, repo: this.repositoryOf(id, new Date(meta.now)), lastActive: wall, persistedActive: wall };
    if (meta.fixture || meta.perturbations?.noise) {
      try {
        this.applyFixtureTo(session, baseUrlOf(id));
      } catch (err) {
        this.store.clearSandbox(id);
        throw err;
      }
    }
    this.stmts.upsert.run(id, JSON.stringify(meta), wall);
    this.live.set(id, session);
    return session;
  }

  /** A live session (or the default one), touched; undefined for an unknown or malformed id. */
  get(id: string): LiveSession | undefined {
    const session = id === DEFAULT_SANDBOX ? this.defaultSession : isWellFormedSessionId(id) ? this.live.get(id) : undefined;
    if (session) this.touch(session);
    return session;
  }

  /** The session or a 404 OperationOutcome. */
  require(id: string): LiveSession {
    const session = this.get(id);
    if (!session) throw notFound(`No session '${id}'`);
    return session;
  }

  /** Whether requests under /fhir/_session/{id} address a live session (no touch). */
  has(id: string): boolean {
    return isWellFormedSessionId(id) && this.live.has(id);
  }

  /** The repository behind /fhir/_session/{id}: only real sessions (the default session is /fhir). */
  repositoryFor(id: string): Repository {
    const session = isWellFormedSessionId(id) ? this.live.get(id) : undefined;
    if (!session) throw notFound(`No session '${id}'`);
    this.touch(session);
    return session.repo;
  }

  /** Live sessions `client` created. */
  private liveOf(client: string): number {
    let n = 0;
    for (const session of this.live.values()) if (session.meta.client === client) n++;
    return n;
  }

  list(): LiveSession[] {
    this.sweep();
    return [...this.live.values()];
  }

  /** Back to the episode's start: overlay and audit rows removed, fixture re-applied, clock rewound. */
  reset(id: string, baseUrl: string): LiveSession {
    const session = this.require(id);
    this.store.transaction(() => {
      this.store.clearSandbox(session.meta.id);
      this.audit.clear(session.meta.id);
    });
    if (session.meta.ended?.graded) throw conflict(`Session '${id}' was graded: its grade showed the grader's evidence, so it cannot be reset; create a new session for another attempt`);
    delete session.meta.submission;
    delete session.meta.ended;
    if (session === this.defaultSession) return session;
    session.repo = this.repositoryOf(id, new Date(session.meta.now));
    session.meta.watermark = 0;
    if (session.meta.fixture || session.meta.perturbations?.noise) this.applyFixtureTo(session, baseUrl);
    this.stmts.upsert.run(id, JSON.stringify(session.meta), session.lastActive);
    return session;
  }

  delete(id: string): void {
    if (id === DEFAULT_SANDBOX) throw new FhirError(405, [issue('error', 'not-supported', 'The default session cannot be deleted; reset it instead')]);
    const session = this.require(id);
    this.discard(session.meta.id);
  }

  /**
   * Records the answer. A session's episode ends with its first submit: a second one is a 409 (the default session,
   * /fhir, is no episode, and a task allowing continuation keeps its episode going: they take any number).
   */
  submit(id: string, body: unknown): Submission {
    const session = this.require(id);
    if (session.meta.ended) throw episodeOver(id, session.meta.ended, 'it takes one answer');
    // The shape ({answer, files?: {name: text}}) is the route schema's (server/gym/routes.ts).
    const { answer, files } = body as { answer: unknown; files?: Record<string, string> };
    const submission: Submission = { answer, submittedAt: session.repo.now.toISOString() };
    if (files !== undefined) submission.files = files;
    session.meta.submission = submission;
    // endEpisode stores the meta, the submission with it.
    if (session !== this.defaultSession) {
      if (session.meta.continuation) this.stmts.upsert.run(id, JSON.stringify(session.meta), session.lastActive);
      else this.endEpisode(session);
    }
    return submission;
  }

  /** Ends the session's episode now if it has not ended (grading an unsubmitted session ends it too); its end. */
  endEpisode(session: LiveSession, graded = false): EpisodeEnd {
    if (!session.meta.ended) session.meta.ended = { at: session.repo.now.toISOString(), logSeq: this.audit.lastSeq(session.meta.id) };
    if (graded && !session.meta.ended.graded) session.meta.ended.graded = true;
    if (session !== this.defaultSession) this.stmts.upsert.run(session.meta.id, JSON.stringify(session.meta), session.lastActive);
    return session.meta.ended;
  }

  /** Remove sessions idle longer than the TTL. Returns how many went. */
  sweep(): number {
    const cutoff = this.settings.wallTime() - this.settings.idleTtlMs;
    let removed = 0;
    for (const session of this.live.values()) {
      if (session.lastActive < cutoff) {
        this.discard(session.meta.id);
        removed++;
      }
    }
    return removed;
  }

  expiresAt(session: LiveSession): string | undefined {
    return session === this.defaultSession ? undefined : new Date(session.lastActive + this.settings.idleTtlMs).toISOString();
  }

  isDefault(session: LiveSession): boolean {
    return session === this.defaultSession;
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    for (const session of this.live.values()) {
      if (session.lastActive !== session.persistedActive) this.stmts.touch.run(session.lastActive, session.meta.id);
    }
  }

  private discard(id: string): void {
    this.store.transaction(() => {
      this.store.clearSandbox(id);
      this.audit.clear(id);
      this.stmts.remove.run(id);
    });
    this.live.delete(id);
  }

  private touch(session: LiveSession): void {
    const now = this.settings.wallTime();
    session.lastActive = now;
    // Persist activity coarsely (a write per request would double the cost of reads).
    if (session !== this.defaultSession && now - session.persistedActive > this.settings.idleTtlMs / 10) {
      this.stmts.touch.run(now, session.meta.id);
      session.persistedActive = now;
    }
  }

  private repositoryOf(id: string, start: Date): Repository {
    return new Repository(this.store, makeSandbox(id, { clock: virtualClock(start) }));
  }

  /** The fixture, then the chart noise of a perturbed session: both are the episode's starting chart. */
  private applyFixtureTo(session: LiveSession, baseUrl: string): void {
    if (session.meta.fixture) applyFixture(session.repo, this.context, session.meta.fixture, baseUrl);
    const { perturbations, variant, task } = session.meta;
    if (perturbations?.noise) {
      perturbations.noise.added = {};
      if (task !== undefined && variant !== undefined && variant !== 'population') applyChartNoise(session.repo, this.context, baseUrl, variant, perturbations);
    }
    session.meta.watermark = historyWatermark(session.repo);
  }

  /** After a restart the clock resumes after the last instant it handed out, so history stays in order. */
  private revive(meta: SessionMeta, lastActive: number): LiveSession {
    let start = Date.parse(meta.now);
    const written = this.repositoryOf(meta.id, new Date(start)).lastWriteTime();
    for (const t of [written, this.audit.lastTime(meta.id)]) if (t) start = Math.max(start, Date.parse(t) + 1);
    return { meta, repo: this.repositoryOf(meta.id, new Date(start)), lastActive, persistedActive: lastActive };
  }

  private specFrom(request: SessionRequest): Omit<SessionMeta, 'id' | 'createdAt' | 'watermark'> {
    let setup: TaskSetup = {};
    if (request.task !== undefined && this.tasks) {
      const found = this.tasks.resolve(request.task, request.variant);
      if (!found) throw badRequest(`Unknown task '${request.task}'${request.variant ? ` variant '${request.variant}'` : ''}`, ['task']);
      setup = found;
    }
    const nowText = request.now ?? setup.now;
    let now: string;
    if (nowText === undefined) {
      now = new Date(this.settings.wallTime()).toISOString();
    } else {
      // A FHIR instant: date, time and zone required, so "now" never depends on the server's time zone.
      if (typeof nowText !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(nowText) || Number.isNaN(Date.parse(nowText))) {
        throw badRequest('now must be an instant with a time zone, e.g. 2023-11-13T10:15:00+00:00', ['now']);
      }
      now = new Date(nowText).toISOString();
    }
    const fixture = request.fixture ?? setup.fixture;
    if (fixture !== undefined) assertFixtureShape(fixture);
    const spec: Omit<SessionMeta, 'id' | 'createdAt' | 'watermark'> = { now, toolOptions: toolOptionsFrom(request.toolOptions) };
    if (request.task !== undefined) spec.task = request.task;
    if (request.variant !== undefined) spec.variant = request.variant;
    if (setup.instruction !== undefined) spec.instruction = setup.instruction;
    if (request.perturbations !== undefined) {
      spec.perturbations = definite(request.perturbations);
      if (spec.perturbations.paraphrase) {
        const index = pickParaphrase(spec.perturbations.seed, setup.paraphrases?.length ?? 0);
        spec.perturbations.paraphrase.index = index;
        if (index !== null) spec.instruction = setup.paraphrases![index];
      }
    }
    if (setup.continuation) spec.continuation = true;
    if (fixture !== undefined) spec.fixture = fixture as Bundle;
    return spec;
  }
}

/** The 409 for acting in a session whose episode ended. */
export function episodeOver(id: string, end: EpisodeEnd, what: string): FhirError {
  return conflict(`The episode of session '${id}' ended at ${end.at} with its ${end.graded ? 'grade' : 'submission'}; ${what}`);
}

/** The tool options of a new session: the defaults, overridden by what was asked (its shape is the route schema's). */
function toolOptionsFrom(value: Partial<ToolOptions> | undefined): ToolOptions {
  return { ...defaultToolOptions, ...value };
}
