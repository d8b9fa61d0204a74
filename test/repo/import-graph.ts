// The project's import graph as the TypeScript compiler resolves it: `tsc --explainFiles` names, for every file of
// the program, each file that imports it and through which specifier (static, dynamic and type-only imports alike).
// Reading the compiler's own resolution means no second parser to disagree with it about what a specifier names.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export type ImportGraph = Map<string, Set<string>>;

/** file -> the project files it imports (paths relative to `root`, node_modules left out). */
export async function importGraph(root: string): Promise<ImportGraph> {
  // The compiler is a native executable behind a node launcher; run the executable itself, so a test runner's hooks
  // on child node processes (tap's processinfo) never load the launcher.
  const pkg = createRequire(path.join(root, 'package.json')).resolve('typescript/package.json');
  const { default: getExePath } = (await import(pathToFileURL(path.join(path.dirname(pkg), 'lib', 'getExePath.js')).href)) as { default: () => string };
  let output: string;
  try {
    output = execFileSync(getExePath(), ['--noEmit', '-p', root, '--explainFiles'], { cwd: root, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  } catch (error) {
    // Type errors make tsc exit non-zero; the explanation is printed all the same (the type-check is CI's own step).
    const failed = error as { stdout?: string; stderr?: string; message: string };
    output = failed.stdout ?? '';
    if (!output.trim()) throw new Error(`tsc --explainFiles printed nothing: ${failed.stderr || failed.message}`);
  }
  return parseExplainFiles(output);
}

const IMPORTED = /^\s+Imported via .* from file '([^']+)'/;

export function parseExplainFiles(output: string): ImportGraph {
  const graph: ImportGraph = new Map();
  let current: string | undefined;
  for (const line of output.split('\n')) {
    if (line.length > 0 && !/^\s/.test(line)) {
      const file = line.trim();
      current = file.includes('node_modules') || path.isAbsolute(file) ? undefined : file;
      if (current && !graph.has(current)) graph.set(current, new Set());
      continue;
    }
    const match = current ? IMPORTED.exec(line) : null;
    if (!match || match[1].includes('node_modules')) continue;
    const from = match[1];
    if (!graph.has(from)) graph.set(from, new Set());
    graph.get(from)!.add(current!);
  }
  return graph;
}

/** Strongly connected components with more than one file (Tarjan), or a file importing itself: the import cycles. */
export function importCycles(graph: ImportGraph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || graph.get(v)?.has(v)) cycles.push(component.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return cycles;
}
