// The benchmark's subcommands of `ehr-gym`: run, and task new|check|list. Registered by bin/ehr-gym.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Command, InvalidArgumentError } from 'commander';

function wholeNumber(min: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) throw new InvalidArgumentError(`expected a whole number >= ${min}`);
    return n;
  };
}

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

async function withServer<T>(flags: ServerFlags, work: (gym: import('./gym-client.ts').GymClient) => Promise<T>): Promise<T> {
  const { startBenchServer } = await import('./server.ts');
  const { GymClient } = await import('./gym-client.ts');
  const server = await startBenchServer({
    ...(flags.server ? { server: flags.server } : {}), ...(flags.db ? { dbPath: flags.db } : {}),
    patients: flags.patients, seed: flags.seed, seedProgress: process.stderr.isTTY,
  });
  try {
    return await work(new GymClient(server.url));
  } finally {
    await server.close();
  }
}

export function registerBenchmarkCommands(program: Command): void {
  addServerOptions(program
    .command('run')
    .description('run an agent on tasks: a session per episode, graded; per-episode JSON and summary.json in --out')
    .option('--agent <agent>', 'oracle, null or openai', 'oracle')
    .option('--tasks <glob...>', 'task ids or globs, e.g. nephrology/* (default: all)')
    .option('--trials <k>', 'episodes per task variant', wholeNumber(1), 1)
    .option('--concurrency <c>', 'episodes in flight', wholeNumber(1), 4)
    .option('--out <dir>', 'results directory')
    .option('--model <name>', 'openai: model (env OPENAI_MODEL)')
    .option('--base-url <url>', 'openai: API base URL (env OPENAI_BASE_URL)')
    .option('--api-key <key>', 'openai: API key (env OPENAI_API_KEY)')
    .option('--max-turns <n>', 'openai: turn budget per episode', wholeNumber(1), 40)
    .option('--retries <n>', 'openai: retries per completion', wholeNumber(0), 3))
    .action(async (opts: ServerFlags & { agent: string; tasks?: string[]; trials: number; concurrency: number; out?: string; model?: string; baseUrl?: string; apiKey?: string; maxTurns: number; retries: number }) => {
      const { loadTask, selectTaskIds } = await import('./task-loader.ts');
      const { runBenchmark } = await import('./runner.ts');
      const { formatSummary } = await import('./scoring.ts');
      const agent = await agentNamed(opts);
      const ids = selectTaskIds(opts.tasks);
      if (ids.length === 0) throw new InvalidArgumentError(`no task matches ${opts.tasks?.join(' ') ?? '(all)'}`);
      const tasks = await Promise.all(ids.map((id) => loadTask(id)));
      const result = await withServer(opts, (gym) => runBenchmark({
        tasks, agent, gym, trials: opts.trials, concurrency: opts.concurrency, progress: process.stderr.isTTY, ...(opts.out ? { outDir: opts.out } : {}),
      }));
      for (const p of result.problems) console.error(`warning: ${p}`);
      console.log(`agent ${agent.name}, ${opts.trials} trial(s)`);
      console.log(formatSummary(result.summary));
      if (opts.out) console.log(`\nresults in ${opts.out}/summary.json and ${opts.out}/episodes/`);
      if (result.problems.length > 0) process.exitCode = 1;
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

async function agentNamed(opts: { agent: string; model?: string; baseUrl?: string; apiKey?: string; maxTurns: number; retries: number }) {
  switch (opts.agent) {
    case 'oracle': return (await import('./agents/oracle.ts')).oracleAgent;
    case 'null': return (await import('./agents/null.ts')).nullAgent;
    case 'openai': {
      const { openAiAgent, openAiOptionsFromEnv } = await import('./agents/openai.ts');
      return openAiAgent(openAiOptionsFromEnv({
        ...(opts.model ? { model: opts.model } : {}), ...(opts.baseUrl ? { baseUrl: opts.baseUrl } : {}), ...(opts.apiKey ? { apiKey: opts.apiKey } : {}),
        maxTurns: opts.maxTurns, retries: opts.retries,
      }));
    }
    default: throw new InvalidArgumentError(`unknown agent '${opts.agent}' (oracle, null or openai)`);
  }
}
