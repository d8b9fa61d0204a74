// `ehr-gym grade`: grade a running session (`--server URL --session ID`: the server's POST /gym/sessions/{id}/grade),
// or re-grade the stored episodes of a results folder (`--results DIR`, harness/regrade.ts) without re-running the
// agent. Registered by bin/ehr-gym.ts; the work is imported when the command runs.
import { readFileSync } from 'node:fs';
import { type Command, InvalidArgumentError } from 'commander';

interface GradeFlags {
  server?: string;
  session?: string;
  results?: string;
  tasksDir?: string;
  db?: string;
  patients?: number;
  seed?: number;
  out?: string;
  json?: boolean;
  check?: boolean;
}

function wholeNumber(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('expected a whole number >= 0');
  return n;
}

export function registerGradeCommand(program: Command): void {
  program
    .command('grade')
    .description('grade a running session (--server URL --session ID), or re-grade a results folder (--results DIR) without re-running the agent')
    .option('--server <url>', 'a running ehr-gym server (with --session: the server that holds it; with --results: where to rebuild the episodes)')
    .option('--session <id>', 'the session to grade (POST /gym/sessions/{id}/grade; ends its episode)')
    .option('--results <dir>', 'a results folder of ehr-gym run (--out): re-grade its episodes/*.json')
    .option('--tasks-dir <dir>', '--results: the tasks folder to grade with (default the repository\'s)')
    .option('--db <path>', '--results, in-process server: SQLite file (default in-memory)')
    .option('--patients <n>', '--results, in-process server: patients to seed (default: the run\'s, as its episodes record, else 250)', wholeNumber)
    .option('--seed <s>', '--results, in-process server: population seed (default: the run\'s, else 1)', wholeNumber)
    .option('--out <dir>', '--results: write the re-graded episodes and regrade.json here')
    .option('--json', 'print JSON instead of text')
    .option('--check', 'exit 1 unless every re-graded episode reproduces its stored verdicts')
    .action(async (opts: GradeFlags) => {
      const { episodeFiles, formatRegrade, formatSessionGrade, regradeResults, writeRegrade } = await import('./regrade.ts');
      if (opts.session !== undefined) {
        if (!opts.server) throw new InvalidArgumentError('--session needs --server URL');
        if (opts.results !== undefined) throw new InvalidArgumentError('give --session or --results, not both');
        const url = `${opts.server.replace(/\/+$/, '').replace(/\/fhir$/, '')}/gym/sessions/${encodeURIComponent(opts.session)}/grade`;
        const response = await fetch(url, { method: 'POST', headers: { accept: 'application/json' } });
        const text = await response.text();
        if (!response.ok) {
          console.error(`POST ${url} -> ${response.status}: ${text.slice(0, 1000)}`);
          process.exitCode = 1;
          return;
        }
        const grade = JSON.parse(text);
        console.log(opts.json ? JSON.stringify(grade, null, 2) : formatSessionGrade(grade));
        return;
      }
      if (opts.results === undefined) throw new InvalidArgumentError('give --server URL --session ID, or --results DIR');
      const files = episodeFiles(opts.results);
      // The population the run recorded, unless flags say otherwise.
      const first = files.length > 0 ? (JSON.parse(readFileSync(files[0], 'utf8')) as import('./regrade.ts').StoredEpisode).provenance?.population : undefined;
      const { startBenchServer } = await import('./server.ts');
      const { GymClient } = await import('./gym-client.ts');
      const server = await startBenchServer({
        ...(opts.server ? { server: opts.server } : {}), ...(opts.db ? { dbPath: opts.db } : {}), ...(opts.tasksDir ? { tasksDir: opts.tasksDir } : {}),
        patients: opts.patients ?? first?.patients ?? 250, seed: opts.seed ?? first?.seed ?? 1, seedProgress: process.stderr.isTTY,
      });
      let results: Awaited<ReturnType<typeof regradeResults>>;
      try {
        results = await regradeResults(opts.results, new GymClient(server.url), { ...(opts.tasksDir ? { tasksDir: opts.tasksDir } : {}) });
      } finally {
        await server.close();
      }
      if (opts.out) writeRegrade(opts.out, opts.results, results);
      if (opts.json) console.log(JSON.stringify(results.map(({ episode: _episode, ...r }) => r), null, 2));
      else console.log(formatRegrade(results));
      if (opts.check && results.some((r) => !r.reproduced)) process.exitCode = 1;
    });
}

