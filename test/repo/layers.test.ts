// The house rule of ARCHITECTURE.md: imports point down the layers, never up, never in a cycle. Checked over the
// compiler's import graph of the whole tree (type-only and dynamic imports included).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { importCycles, importGraph, parseExplainFiles, type ImportGraph } from './import-graph.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Bottom first. Each layer may import itself and the layers it lists; `test/` may import anything. */
const LAYERS: [layer: string, mayImport: string[]][] = [
  ['contracts', []],
  ['seed/codes', ['contracts']],
  ['resources', ['contracts', 'seed/codes']],
  ['seed', ['contracts', 'seed/codes', 'resources']],
  ['server', ['contracts', 'seed/codes', 'resources']],
  ['graders', ['contracts', 'seed/codes', 'resources', 'seed']],
  ['tasks', ['contracts', 'seed/codes', 'graders']],
  ['harness', ['contracts', 'seed/codes', 'resources', 'seed', 'server', 'graders', 'tasks']],
  ['bin', ['contracts', 'seed/codes', 'resources', 'seed', 'server', 'graders', 'tasks', 'harness']],
  ['bench', ['contracts', 'seed/codes', 'resources', 'seed', 'server', 'graders', 'tasks', 'harness']],
  ['test', ['*']],
];

function layerOf(file: string): string | undefined {
  return LAYERS.map(([layer]) => layer).filter((layer) => file === layer || file.startsWith(`${layer}/`))
    .sort((a, b) => b.length - a.length)[0];
}

function violations(graph: ImportGraph): string[] {
  const allowed = new Map(LAYERS);
  const out: string[] = [];
  for (const [from, targets] of graph) {
    const fromLayer = layerOf(from);
    if (!fromLayer) {
      out.push(`${from} is in no layer`);
      continue;
    }
    for (const to of targets) {
      const toLayer = layerOf(to);
      if (toLayer === fromLayer) continue;
      const may = allowed.get(fromLayer)!;
      if (may.includes('*') || (toLayer !== undefined && may.includes(toLayer))) continue;
      out.push(`${from} (${fromLayer}) imports ${to} (${toLayer ?? 'no layer'})`);
    }
  }
  return out.sort();
}

t.test('the checks catch an upward import and a cycle', async (t) => {
  const explained = [
    'resources/search/engine.ts',
    "  Imported via '../../server/context.ts' from file 'server/context.ts'",
    'server/context.ts',
    "  Imported via '../resources/search/engine.ts' from file 'resources/search/engine.ts'",
    'contracts/task.ts',
    "  Imported via '../../contracts/task.ts' from file 'graders/lib/match.ts'",
    'node_modules/fastify/fastify.d.ts',
    "  Imported via 'fastify' from file 'server/app.ts'",
  ].join('\n');
  const graph = parseExplainFiles(explained);
  t.same(violations(graph), ['resources/search/engine.ts (resources) imports server/context.ts (server)']);
  t.same(importCycles(graph), [['resources/search/engine.ts', 'server/context.ts']]);
  t.notOk(graph.has('node_modules/fastify/fastify.d.ts'), 'packages are not project files');
});

t.test('the tree', async (t) => {
  const graph = await importGraph(root);
  t.ok(graph.size > 300, `the compiler explained the program (${graph.size} files)`);
  t.ok(graph.get('server/app.ts')?.size, 'imports were read');
  t.same(importCycles(graph), [], 'no import cycle');
  t.same(violations(graph), [], 'every import points down a layer');
});
