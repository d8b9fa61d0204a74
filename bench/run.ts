// `npm run bench [-- --only name[,name]]`: runs the benchmark sections in order and rewrites bench/RESULTS.md with
// the command, date and machine, then each section's tables. A section is a file bench/<name>.ts exporting
// `async function bench<Name>(): Promise<string>` (markdown); files not present yet are skipped.
// With --only, the other sections already in RESULTS.md are kept as they were (each says when it was measured).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Run order. */
const SECTIONS = ['core', 'search', 'seed', 'sessions', 'scale', 'terminology', 'views', 'documentation', 'grading', 'robustness', 'soak'];

const here = dirname(fileURLToPath(import.meta.url));
const resultsPath = join(here, 'RESULTS.md');

function parseOnly(argv: string[]): string[] | undefined {
  const i = argv.findIndex((a) => a === '--only' || a.startsWith('--only='));
  if (i < 0) return undefined;
  const value = argv[i].includes('=') ? argv[i].split('=')[1] : argv[i + 1];
  if (!value) throw new Error('--only needs a section name: ' + SECTIONS.join(', '));
  const names = value.split(',').map((s) => s.trim()).filter(Boolean);
  for (const name of names) if (!SECTIONS.includes(name)) throw new Error(`unknown section '${name}'; known: ${SECTIONS.join(', ')}`);
  return names;
}

export function machine(): string {
  const cpu = cpus();
  const memGiB = (totalmem() / 1024 ** 3).toFixed(1);
  const load = loadavg().map((l) => l.toFixed(2)).join(' ');
  return `${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${cpu.length} cores, ${memGiB} GiB RAM, Node ${process.version}, ${process.platform}/${process.arch}, load average at start ${load}`;
}

/** Section bodies already in RESULTS.md, keyed by name, so an --only run replaces just its own. */
function previousSections(): Map<string, string> {
  const sections = new Map<string, string>();
  if (!existsSync(resultsPath)) return sections;
  const text = readFileSync(resultsPath, 'utf8');
  for (const match of text.matchAll(/<!-- section:(\w+) -->\n([\s\S]*?)<!-- \/section:\1 -->/g)) sections.set(match[1], match[2]);
  return sections;
}

async function runSection(name: string): Promise<string | undefined> {
  const file = join(here, `${name}.ts`);
  if (!existsSync(file)) return undefined;
  const exportName = `bench${name[0].toUpperCase()}${name.slice(1)}`;
  try {
    const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    const fn = module[exportName];
    if (typeof fn !== 'function') return `_bench/${name}.ts does not export ${exportName}()._\n`;
    const started = performance.now();
    const markdown = (await (fn as () => Promise<string>)()).trim();
    const seconds = ((performance.now() - started) / 1000).toFixed(0);
    return `_Measured ${new Date().toISOString()} by \`${command()}\` (${seconds} s)._\n\n${markdown}\n`;
  } catch (err) {
    return `_bench/${name}.ts failed: ${(err as Error).stack?.split('\n').slice(0, 3).join(' / ') ?? String(err)}_\n`;
  }
}

function command(): string {
  const args = process.argv.slice(2);
  return `npm run bench${args.length ? ` -- ${args.join(' ')}` : ''}`;
}

async function main(): Promise<void> {
  const only = parseOnly(process.argv.slice(2));
  const names = only ?? SECTIONS;
  const produced = new Map<string, string>();
  const header = [
    '# Benchmark results',
    '',
    `Written by \`${command()}\` on ${new Date().toISOString()}.`,
    '',
    `Machine: ${machine()}.`,
    '',
    'Regenerate everything with `npm run bench`, or one section with `npm run bench -- --only <name>` ' +
      `(sections: ${SECTIONS.join(', ')}); other sections are then kept as last measured.`,
    '',
  ];
  for (const name of names) {
    process.stderr.write(`bench: ${name}...\n`);
    const body = await runSection(name);
    if (body === undefined) {
      process.stderr.write(`bench: ${name} skipped (bench/${name}.ts not present)\n`);
      continue;
    }
    produced.set(name, body);
    process.stdout.write(`${body}\n`);
    write(header, produced);
  }
  write(header, produced);
  process.stderr.write(`bench: wrote ${resultsPath}\n`);
}

/** Merge this run's sections into the file as it is now (another run may have written meanwhile), then write it. */
function write(header: string[], produced: Map<string, string>): void {
  const sections = previousSections();
  for (const [name, body] of produced) sections.set(name, body);
  const ordered = [...SECTIONS.filter((n) => sections.has(n)), ...[...sections.keys()].filter((n) => !SECTIONS.includes(n))];
  const body = ordered.map((n) => `<!-- section:${n} -->\n${sections.get(n)}<!-- /section:${n} -->\n`);
  writeFileSync(resultsPath, `${header.join('\n')}\n${body.join('\n')}`);
}

await main();
process.exit(0);
