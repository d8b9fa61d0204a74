// The benchmark's subcommands of `ehr-gym`: run, task new|check|list, and the agent-tool commands tools and mcp.
// Registered by bin/ehr-gym.ts. Usage errors are one line on stderr and a non-zero exit, never a stack trace.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { splitFilters, type SplitFilter } from '../contracts/splits.ts';
import { perturbationKinds, type PerturbationKind } from '../contracts/perturbations.ts';
import { toolFormats, type ToolFormat } from '../server/tools/index.ts';
import type { Agent } from './agents/agent.ts';
import type { ModelSettings, Price } from './types.ts';

function wholeNumber(min: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) throw new InvalidArgumentError(`expected a whole number >= ${min}`);
    return n;
  };
}

function positiveNumber(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('expected a number > 0');
  return n;
}

function temperature(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 2) throw new InvalidArgumentError('expected a number from 0 to 2');
  return n;
}

/** `--perturb KIND[,KIND]`: perturbation kinds, each once. */
export function perturbKinds(value: string): PerturbationKind[] {
  const kinds = value.split(',').map((k) => k.trim());
  const unknown = kinds.filter((k) => !(perturbationKinds as readonly string[]).includes(k));
  if (kinds.length === 0 || unknown.length > 0) throw new InvalidArgumentError(`expected kinds from ${perturbationKinds.join(', ')}, comma-separated`);
  return [...new Set(kinds)] as PerturbationKind[];
}

/** `--price IN,OUT`: USD per million input and per million output tokens. */
export function parsePrice(value: string): Price {
  const parts = value.split(',').map((p) => p.trim());
  const [input, output] = parts.map(Number);
  if (parts.length !== 2 || parts.some((p) => p === '') || ![input, output].every((n) => Number.isFinite(n) && n >= 0)) {
    throw new InvalidArgumentError('expected IN,OUT: USD per million input and output tokens, e.g. 2.5,10');
  }
  return { inputPerMillion: input, outputPerMillion: output };
}

/** Exit code of `ehr-gym run` when an episode ended in an infrastructure error (without --allow-errors). */
export const INFRA_ERROR_EXIT_CODE = 3;

interface ServerFlags {
  server?: string;
  db?: string;
  patients: number;
  seed: number;
}

function addServerOptions(command: Command): Command {
  return command
    .option('--server <url>', 'a running ehr-gym server (default: an in-process one)')
    .option('--db <path>', 'in-process server: SQLite file (default in-memory)')
    .option('--patients <n>', 'in-process server: patients to seed into an empty database', wholeNumber(0), 250)
    .option('--seed <s>', 'in-process server: population seed', wholeNumber(0), 1);
}

async function withServer<T>(flags: ServerFlags, work: (gym: import('./gym-client.ts').GymClient, server: import('./server.ts').BenchServer) => Promise<T>): Promise<T> {
  const { startBenchServer } = await import('./server.ts');
  const { GymClient } = await import('./gym-client.ts');
  const server = await startBenchServer({
    ...(flags.server ? { server: flags.server } : {}), ...(flags.db ? { dbPath: flags.db } : {}),
    // ensureDefaultPopulation draws a bar on a terminal and says the same in plain lines when stderr is piped.
    patients: flags.patients, seed: flags.seed, seedProgress: true,
  });
  try {
    return await work(new GymClient(server.url), server);
  } finally {
    await server.close();
  }
}

interface RunFlags extends ServerFlags {
  agent: string;
  perturb?: PerturbationKind[];
  perturbSeed: number;
  split?: SplitFilter;
  tasks?: string[];
  trials: number;
  concurrency: number;
  out?: string;
  model?: string;
  baseUrl?: string;
  apiKey?: string;
  temperature?: number;
  maxTokens?: number;
  maxTurns: number;
  maxEpisodeTokens?: number;
  episodeTimeLimit?: number;
  toolOutputLimit: number;
  strict?: boolean;
  retries: number;
  requestTimeout: number;
  price?: Price;
  allowErrors?: boolean;
}

export function registerBenchmarkCommands(program: Command): void {
  addServerOptions(program
    .command('run')
    .description('run an agent on tasks: a session per episode, graded; per-episode JSON and summary.json in --out')
    .option('--agent <agent>', 'oracle, null, openai, anthropic, or a module path (./my-agent.ts|.js) exporting an Agent', 'oracle')
    .option('--tasks <glob...>', 'task ids or globs, e.g. nephrology/* (default: all)')
    .option('--trials <k>', 'episodes per task variant', wholeNumber(1), 1)
    .addOption(new Option('--split <split>', 'only the variants of this split (patients partitioned by id hash; held-out: the held-out tasks)').choices(splitFilters))
    .option('--perturb <kinds>', `run clean, then perturbed by each kind (${perturbationKinds.join(', ')}), on the same variants; report the score drop`, perturbKinds)
    .option('--perturb-seed <s>', 'seed of the perturbations', wholeNumber(0), 1)
    .option('--concurrency <c>', 'episodes in flight', wholeNumber(1), 4)
    .option('--out <dir>', 'results directory')
    .option('--model <name>', 'model (env OPENAI_MODEL / ANTHROPIC_MODEL)')
    .option('--base-url <url>', 'model API base URL (env OPENAI_BASE_URL / ANTHROPIC_BASE_URL)')
    .option('--api-key <key>', 'model API key (env OPENAI_API_KEY / ANTHROPIC_API_KEY)')
    .option('--temperature <t>', 'sampling temperature (the API default when not given)', temperature)
    .option('--max-tokens <n>', 'output tokens of one model reply (anthropic default 4096)', wholeNumber(1))
    .option('--max-turns <n>', 'model calls per episode', wholeNumber(1), 40)
    .option('--max-episode-tokens <n>', 'prompt + completion tokens per episode; the episode stops (an agent failure) once reached', wholeNumber(1))
    .option('--episode-time-limit <seconds>', 'wall time per episode; the episode stops (an agent failure) once reached', positiveNumber)
    .option('--tool-output-limit <chars>', 'characters of one tool result the model sees; longer ones are cut with a note (default sized for a 128k-token context)', wholeNumber(1), 64_000)
    .option('--strict', 'offer strict-mode tool schemas (OpenAI strict function calling, Anthropic strict tool use)')
    .option('--retries <n>', 'retries of a failed model request (429, 5xx, network, timeout; Retry-After honoured)', wholeNumber(0), 4)
    .option('--request-timeout <seconds>', 'timeout of one model request', positiveNumber, 180)
    .option('--price <in,out>', 'USD per million input and output tokens, for the cost columns', parsePrice)
    .option('--allow-errors', `exit 0 even when episodes ended in infrastructure errors (otherwise exit ${INFRA_ERROR_EXIT_CODE})`))
    .action(async (opts: RunFlags, command: Command) => {
      const { loadTask, selectTaskIds } = await import('./task-loader.ts');
      const { runBenchmark } = await import('./runner.ts');
      const { formatSummary } = await import('./scoring.ts');
      const { runProvenance } = await import('./provenance.ts');
      // A bad --agent is a usage error (one line, exit 1), not a stack trace.
      const agent = await agentNamed(opts).catch((err: Error) => command.error(`error: ${err.message}`));
      const ids = selectTaskIds(opts.tasks);
      if (ids.length === 0) command.error(`error: no task matches ${opts.tasks?.join(' ') ?? '(all)'}`);
      const tasks = await Promise.all(ids.map((id) => loadTask(id)));
      const { runPerturbationComparison, formatComparison } = await import('./perturb.ts');
      const result = await withServer(opts, async (gym, server) => {
        const options = {
          tasks, agent, gym, trials: opts.trials, concurrency: opts.concurrency, ...(opts.split ? { split: opts.split } : {}),
          progress: process.stderr.isTTY ? 'bar' as const : 'lines' as const,
          provenance: await runProvenance(server.url, { inProcess: server.inProcess, ...(server.population ? { population: server.population } : {}) }),
          ...(opts.price ? { price: opts.price } : {}), settings: runSettings(opts), ...(opts.out ? { outDir: opts.out } : {}),
        };
        if (!opts.perturb) return runBenchmark(options);
        const comparison = await runPerturbationComparison(options, opts.perturb, opts.perturbSeed);
        console.log(`score drop under perturbation (seed ${opts.perturbSeed}), same variants:\n${formatComparison(comparison)}\n`);
        const all = [comparison.clean, ...comparison.perturbed.map((p) => p.result)];
        // The clean run's summary is printed below; infrastructure errors of any run count for the exit code.
        return { ...comparison.clean, summary: { ...comparison.clean.summary, infraErrors: all.reduce((n, r) => n + r.summary.infraErrors, 0) } };
      });
      for (const p of result.problems) console.error(`warning: ${p}`);
      console.log(`agent ${agent.name}, ${opts.trials} trial(s)`);
      console.log(formatSummary(result.summary));
      if (opts.out) console.log(`\nresults in ${opts.out}/summary.json and ${opts.out}/episodes/`);
      if (result.problems.length > 0) process.exitCode = 1;
      if (result.summary.infraErrors > 0) {
        console.error(`\n${result.summary.infraErrors} episode(s) ended in infrastructure errors (not scored)${opts.allowErrors ? '; --allow-errors given' : `: exit ${INFRA_ERROR_EXIT_CODE} (--allow-errors to accept them)`}`);
        if (!opts.allowErrors) process.exitCode = INFRA_ERROR_EXIT_CODE;
      }
    });

  const task = program.command('task').description('maintain tasks: new, check, list');

  task
    .command('new <id>')
    .description('scaffold tasks/<specialty>/<slug>/ with task.json, solution.ts and grader.ts')
    .action(async (id: string) => {
      const { scaffoldTask } = await import('./task-scaffold.ts');
      for (const file of scaffoldTask(id)) console.log(`created ${file}`);
    });

  addServerOptions(task
    .command('check [glob...]')
    .description('prove tasks: schema, a check per checkpoint, variants exist, oracle 100%, null fails actions, every solution write matters')
    .option('--no-mutation', 'skip the mutation check')
    .option('--markdown', 'end with a per-task markdown table of variants and case-suite results (for bench/RESULTS.md)'))
    .action(async (globs: string[], opts: ServerFlags & { mutation: boolean; markdown?: boolean }) => {
      const { selectTaskIds } = await import('./task-loader.ts');
      const { caseSuiteTable, checkTask, formatCheckReport } = await import('./task-check.ts');
      const reports: Awaited<ReturnType<typeof checkTask>>[] = [];
      const ids = selectTaskIds(globs);
      if (ids.length === 0) throw new InvalidArgumentError(`no task matches ${globs.join(' ') || '(all)'}`);
      let failed = 0;
      await withServer(opts, async (gym) => {
        for (const id of ids) {
          const report = await checkTask(id, gym, { mutation: opts.mutation });
          if (!report.ok) failed++;
          reports.push(report);
          console.log(formatCheckReport(report));
        }
      });
      if (opts.markdown) console.log(`\n${caseSuiteTable(reports)}`);
      console.log(`\n${ids.length - failed}/${ids.length} task(s) pass the checks`);
      if (failed > 0) process.exitCode = 1;
    });

  task
    .command('list')
    .description('list tasks; --markdown prints the tables of tasks/README.md, --write updates them in place')
    .option('--markdown', 'the per-specialty and per-category tables')
    .option('--write', 'rewrite the generated block of tasks/README.md')
    .action(async (opts: { markdown?: boolean; write?: boolean }) => {
      const { defaultTasksDir, discoverTaskIds, readTaskSpec } = await import('./task-loader.ts');
      const { readmeTablesBlock, taskTablesBlock } = await import('./task-list.ts');
      const specs = discoverTaskIds().map((id) => readTaskSpec(id));
      if (opts.write) {
        const path = join(defaultTasksDir, 'README.md');
        const readme = readFileSync(path, 'utf8');
        const block = readmeTablesBlock(readme);
        if (!block) throw new Error(`${path} has no generated-table markers`);
        writeFileSync(path, readme.replace(block, taskTablesBlock(specs)));
        console.log(`updated ${path}`);
      } else if (opts.markdown) {
        console.log(taskTablesBlock(specs));
      } else {
        for (const s of specs) console.log(`${s.id.padEnd(48)} ${s.level.padEnd(10)} ${String(s.checkpoints.length).padStart(3)} checkpoints  ${s.title}`);
      }
    });
}

export function registerToolCommands(program: Command): void {
  program
    .command('tools')
    .description('print the agent tool schemas (the same as GET /gym/tools)')
    .addOption(new Option('--format <format>', 'tool format').choices(toolFormats).default('openai'))
    .option('--strict', 'strict-mode schemas (openai and anthropic formats): every property required, optional ones nullable, free-form objects as JSON text')
    .action(async (opts: { format: ToolFormat; strict?: boolean }, command: Command) => {
      const { gymTools, renderTools } = await import('../server/tools/index.ts');
      if (opts.strict && opts.format !== 'openai' && opts.format !== 'anthropic') command.error(`error: --strict applies to --format openai or anthropic, not ${opts.format}`);
      let tools: unknown[];
      if (opts.format === 'openai') tools = (await import('./agents/openai.ts')).openAiTools([...gymTools], opts.strict ?? false);
      else if (opts.format === 'anthropic') tools = (await import('./agents/anthropic.ts')).anthropicTools([...gymTools], opts.strict ?? false);
      else if (opts.format === 'mcp') tools = (await import('../server/gym/mcp.ts')).mcpTools();
      else tools = renderTools(opts.format);
      console.log(JSON.stringify(tools, null, 2));
    });

  program
    .command('mcp')
    .description('serve the gym tools over MCP on stdio, bound to one session (created if --session is not given)')
    .option('--session <id>', 'the gym session to act in')
    .option('--task <task>', 'task of a session to create')
    .option('--variant <variant>', 'task variant of a session to create')
    .option('--now <instant>', 'clock start of a session to create')
    .option('--url <url>', 'a running ehr-gym server (e.g. http://127.0.0.1:8080); without it the server runs in this process')
    .option('--db <path>', 'SQLite database file when running in this process', process.env.EHR_GYM_DB ?? 'data/ehr-gym.sqlite')
    .action(async (opts: { session?: string; task?: string; variant?: string; now?: string; url?: string; db: string }, command: Command) => {
      // stdout carries the MCP protocol: every message of ours goes to stderr, as one line.
      const fail = (message: string, exitCode: number): never => command.error(`ehr-gym mcp: ${message}`, { exitCode });
      const { fetchClient, injectClient, ToolExecutor } = await import('../server/tools/executor.ts');
      const { createMcpServer } = await import('../server/gym/mcp.ts');
      const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
      let http: import('../server/tools/tool.ts').HttpClient;
      let sessionId = opts.session;
      let instruction: string | undefined;
      try {
        if (opts.url) {
          http = fetchClient(opts.url);
        } else {
          const { mkdirSync } = await import('node:fs');
          const { dirname } = await import('node:path');
          const { buildApp } = await import('../server/app.ts');
          if (opts.db !== ':memory:') mkdirSync(dirname(opts.db), { recursive: true });
          const tasks = (await import('./task-service.ts')).defaultTaskService();
          const { app } = buildApp({ dbPath: opts.db, ...(tasks ? { tasks } : {}) });
          await app.ready();
          http = injectClient(app);
        }
        if (!sessionId) {
          const body: Record<string, string> = {};
          if (opts.task) body.task = opts.task;
          if (opts.variant) body.variant = opts.variant;
          if (opts.now) body.now = opts.now;
          const created = await http({ method: 'POST', path: '/gym/sessions', body });
          if (created.status !== 201) fail(`could not create a session (${created.status}): ${issueText(created.body)}`, 1);
          ({ id: sessionId, instruction } = JSON.parse(created.body) as { id: string; instruction?: string });
          console.error(`ehr-gym MCP: created session ${sessionId}`);
        } else {
          const found = await http({ method: 'GET', path: `/gym/sessions/${encodeURIComponent(sessionId)}` });
          if (found.status === 404) fail(`no gym session '${sessionId}' (unknown or expired); create one with POST /gym/sessions or leave out --session`, MCP_NO_SESSION_EXIT_CODE);
          if (found.status !== 200) fail(`session '${sessionId}' could not be read (${found.status}): ${issueText(found.body)}`, 1);
          ({ instruction } = JSON.parse(found.body) as { instruction?: string });
        }
      } catch (err) {
        // commander's own exit (from fail) passes through; anything else (an unreachable --url, a bad --db) is one line.
        if ((err as { code?: string }).code?.startsWith('commander.')) throw err;
        const e = err as Error;
        fail(`${e.message}${(e.cause as Error | undefined)?.message ? `: ${(e.cause as Error).message}` : ''}`, 1);
      }
      const alive = async () => (await http!({ method: 'GET', path: `/gym/sessions/${encodeURIComponent(sessionId!)}` })).status !== 404;
      const server = createMcpServer(new ToolExecutor(http!, sessionId!), instruction, alive);
      await server.connect(new StdioServerTransport());
    });
}

/** Exit code of `ehr-gym mcp --session ID` when the session is unknown or expired. */
export const MCP_NO_SESSION_EXIT_CODE = 2;

/** The diagnostics of an OperationOutcome body, or the body's start. */
function issueText(body: string): string {
  try {
    const issues = (JSON.parse(body) as { issue?: { diagnostics?: string }[] }).issue ?? [];
    const text = issues.map((i) => i.diagnostics).filter(Boolean).join('; ');
    if (text) return text;
  } catch {
    // not JSON: the text itself
  }
  return body.slice(0, 200).replace(/\s+/g, ' ');
}

/** The run's flags as summary.json records them (never the API key). */
function runSettings(opts: RunFlags): Record<string, unknown> {
  const { apiKey: _key, ...rest } = opts;
  return { ...rest, ...(opts.server ? {} : { patients: opts.patients, seed: opts.seed }) };
}

/** The model settings from the flags (the built-in model agents' and a custom module's). */
export function modelOptions(opts: RunFlags) {
  return {
    ...(opts.model ? { model: opts.model } : {}), ...(opts.baseUrl ? { baseUrl: opts.baseUrl } : {}), ...(opts.apiKey ? { apiKey: opts.apiKey } : {}),
    ...(opts.temperature !== undefined ? { temperature: opts.temperature } : {}), ...(opts.maxTokens !== undefined ? { maxTokens: opts.maxTokens } : {}),
    maxTurns: opts.maxTurns, retries: opts.retries, timeoutMs: Math.round(opts.requestTimeout * 1000),
    ...(opts.maxEpisodeTokens !== undefined ? { maxEpisodeTokens: opts.maxEpisodeTokens } : {}),
    ...(opts.episodeTimeLimit !== undefined ? { episodeTimeLimitMs: Math.round(opts.episodeTimeLimit * 1000) } : {}),
    toolOutputLimit: opts.toolOutputLimit, strict: opts.strict ?? false, ...(opts.price ? { price: opts.price } : {}),
  };
}

function isAgent(value: unknown): value is Agent {
  return typeof value === 'object' && value !== null && typeof (value as Agent).name === 'string' && typeof (value as Agent).run === 'function';
}

/**
 * A custom agent module: its default export (or `agent`) is an Agent, or a function of the run's model settings
 * returning one (harness/agents/example-agent.ts shows both).
 */
export async function loadAgentModule(path: string, settings: ModelSettings): Promise<Agent> {
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(resolve(path)).href)) as Record<string, unknown>;
  } catch (err) {
    throw new InvalidArgumentError(`--agent ${path}: the module did not load: ${(err as Error).message}`);
  }
  const exported = module.default ?? module.agent;
  const agent = typeof exported === 'function' ? await (exported as (s: ModelSettings) => unknown)(settings) : exported;
  if (!isAgent(agent)) throw new InvalidArgumentError(`--agent ${path}: export an Agent ({name, run(ctx)}) as default or \`agent\`, or a function returning one`);
  return agent;
}

async function agentNamed(opts: RunFlags): Promise<Agent> {
  switch (opts.agent) {
    case 'oracle': return (await import('./agents/oracle.ts')).oracleAgent;
    case 'null': return (await import('./agents/null.ts')).nullAgent;
    case 'openai': {
      const { openAiAgent, openAiOptionsFromEnv } = await import('./agents/openai.ts');
      return openAiAgent(openAiOptionsFromEnv(modelOptions(opts)));
    }
    case 'anthropic': {
      const { anthropicAgent, anthropicOptionsFromEnv } = await import('./agents/anthropic.ts');
      return anthropicAgent(anthropicOptionsFromEnv(modelOptions(opts)));
    }
    default: {
      if (/[\\/]|\.(ts|js|mjs|mts)$/.test(opts.agent)) {
        const { modelSettings, openAiOptionsFromEnv } = await import('./agents/openai.ts');
        const { apiKey: _key, ...options } = openAiOptionsFromEnv(modelOptions(opts));
        return loadAgentModule(opts.agent, modelSettings('custom', options));
      }
      throw new InvalidArgumentError(`unknown agent '${opts.agent}' (oracle, null, openai, anthropic, or a path to a module such as ./my-agent.ts)`);
    }
  }
}
