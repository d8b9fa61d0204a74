// `ehr-gym report`, `ehr-gym view` and `ehr-gym export`: look at a results directory of `ehr-gym run --out` (or two,
// compared). Registered by bin/ehr-gym.ts; the work is imported when a command runs. A directory that is not a results
// directory is a one-line usage error.
import { type Command, InvalidArgumentError, Option } from 'commander';
import type { ExportFormat, ExportOptions } from '../export/formats.ts';
import type { EpisodeResult, Price } from '../types.ts';

/**
 * Export options per episode: the run's price, and for episodes without a model conversation the task's instruction
 * for the variant (from the tasks folder; left out when the task is not there).
 */
async function exportOptions(episodes: EpisodeResult[], price: Price | undefined, tasksDir?: string): Promise<(e: EpisodeResult) => ExportOptions> {
  const { loadTask } = await import('../task-loader.ts');
  const { instructionFor, POPULATION_VARIANT } = await import('../variants.ts');
  const { buildTrajectory } = await import('./trajectory.ts');
  const tasks = new Map<string, Awaited<ReturnType<typeof loadTask>> | undefined>();
  for (const e of episodes) {
    if (tasks.has(e.task) || buildTrajectory(e).conversation) continue;
    tasks.set(e.task, await loadTask(e.task, ...(tasksDir ? [tasksDir] : [])).catch(() => undefined));
  }
  return (e) => {
    const task = tasks.get(e.task);
    return { ...(price ? { price } : {}), ...(task ? { instruction: instructionFor(task, e.variant === POPULATION_VARIANT ? '' : e.variant) } : {}) };
  };
}

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('expected a port number from 0 to 65535');
  return n;
}

/** Runs `work`, turning a bad results directory into commander's one-line error. */
async function usingRuns<T>(command: Command, work: () => Promise<T>): Promise<T> {
  const { ResultsDirError } = await import('./data.ts');
  try {
    return await work();
  } catch (err) {
    if (err instanceof ResultsDirError) command.error(`error: ${err.message}`);
    throw err;
  }
}

export function registerResultCommands(program: Command): void {
  program
    .command('report <results> [compare]')
    .description('write the results of a run (ehr-gym run --out DIR) as one self-contained HTML file; a second directory adds a comparison')
    .option('--out <file>', 'the HTML file to write', 'report.html')
    .action(async (results: string, compare: string | undefined, opts: { out: string }, command: Command) => {
      const { mkdirSync, writeFileSync } = await import('node:fs');
      const { dirname } = await import('node:path');
      const { reportData } = await import('./data.ts');
      const { renderReport } = await import('./html.ts');
      const html = await usingRuns(command, async () => renderReport(reportData(compare ? [results, compare] : [results])));
      mkdirSync(dirname(opts.out), { recursive: true });
      writeFileSync(opts.out, html);
      console.log(`wrote ${opts.out} (${Math.round(html.length / 1024)} KiB)`);
    });

  program
    .command('view <results> [compare]')
    .description('serve the report of a run (and the comparison with a second run) on 127.0.0.1; it is rebuilt from the files on every page load')
    .option('--port <port>', 'port (0: any free one)', port, 8090)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .action(async (results: string, compare: string | undefined, opts: { port: number; host: string }, command: Command) => {
      const { serveReport } = await import('./serve.ts');
      const dirs = compare ? [results, compare] : [results];
      const { reportData } = await import('./data.ts');
      await usingRuns(command, async () => reportData(dirs, { lazy: true })); // fail at once on a bad directory, not at the first page load
      const server = await serveReport(dirs, opts).catch((err: NodeJS.ErrnoException) =>
        command.error(`error: cannot listen on ${opts.host}:${opts.port}: ${err.code === 'EADDRINUSE' ? 'the port is in use (--port 0 picks a free one)' : err.message}`));
      console.log(`report of ${dirs.join(' vs ')} at ${server.url} (Ctrl-C stops)`);
      const stop = () => void server.close().then(() => process.exit(0));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });

  program
    .command('export <results>')
    .description('write the episodes of a run as ATIF trajectories (one JSON file each) or as results.jsonl rows (prompt, completion, reward, per-checkpoint rewards, metadata)')
    .addOption(new Option('--format <format>', 'atif or jsonl').choices(['atif', 'jsonl']).makeOptionMandatory())
    .option('--out <path>', 'atif: a directory (default RESULTS/atif); jsonl: a file (default RESULTS/results.jsonl), - for stdout')
    .option('--tasks-dir <dir>', 'where the run\'s tasks are, for the instruction of agents that keep no conversation (default the repository\'s tasks/)')
    .action(async (results: string, opts: { format: ExportFormat; out?: string; tasksDir?: string }, command: Command) => {
      const { mkdirSync, writeFileSync } = await import('node:fs');
      const { dirname, join } = await import('node:path');
      const { episodeId, loadRun } = await import('./data.ts');
      const { toAtif, toJsonlRow } = await import('../export/formats.ts');
      const run = await usingRuns(command, async () => loadRun(results));
      const options = await exportOptions(run.episodes, run.meta.price as Price | undefined, opts.tasksDir);
      if (opts.format === 'atif') {
        const out = opts.out ?? join(results, 'atif');
        mkdirSync(out, { recursive: true });
        for (const e of run.episodes) writeFileSync(join(out, `${episodeId(e)}.json`), `${JSON.stringify(toAtif(e, options(e)), null, 2)}\n`);
        console.error(`wrote ${run.episodes.length} ATIF trajectories to ${out}/`);
        return;
      }
      // An episode the infrastructure ended says nothing about the agent: its reward of 0 would teach the wrong thing.
      const scored = run.episodes.filter((e) => e.outcome !== 'infra_error');
      const text = scored.map((e) => JSON.stringify(toJsonlRow(e, options(e)))).join('\n') + (scored.length ? '\n' : '');
      const skipped = run.episodes.length - scored.length;
      if (opts.out === '-') process.stdout.write(text);
      else {
        const out = opts.out ?? join(results, 'results.jsonl');
        mkdirSync(dirname(out), { recursive: true });
        writeFileSync(out, text);
        console.error(`wrote ${scored.length} rows to ${out}${skipped ? `; ${skipped} infrastructure-error episode(s) left out` : ''}`);
      }
    });
}
