// Finds places in the repository's own files that point at a path outside the repository root, so that a clone on
// its own runs everything it ships (issue 23: the SQL on FHIR suite used to be read from ../shared). Static: it
// evaluates string literals, `new URL(lit, import.meta.url)`, and path.resolve/join over literals and over names bound
// to the file's own folder; anything it cannot evaluate it leaves alone.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface OutsideReference {
  file: string;
  line: number;
  text: string;
  target: string;
}

const SOURCE = /\.(ts|mts|cts|js|mjs|cjs|sh)$/;

/** The files git would ship (tracked, plus untracked ones it does not ignore) that are code or scripts. */
// Tests whose fixtures are import lines of made-up files (the scanner's own, the import-ban test) list them on purpose.
const FIXTURE_FILES = new Set(['test/repo/self-contained.test.ts', 'test/tasks/independence.test.ts']);

export function repositoryScripts(root: string): string[] {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: root, encoding: 'utf8' });
  return out.split('\0').filter((f) => f && (SOURCE.test(f) || f === 'package.json' || f.startsWith('.ci/')) && !FIXTURE_FILES.has(f));
}

const inside = (root: string, target: string) => target === root || target.startsWith(root + path.sep);

/** Splits a call's argument text at top-level commas. */
function splitArgs(text: string): string[] {
  const args: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === "'" || c === '"' || c === '`') quote = c;
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 0) {
      args.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  const last = text.slice(start).trim();
  if (last) args.push(last);
  return args;
}

/** The text between the parenthesis at `open` and its match, or undefined when it is not closed. */
function parenthesised(text: string, open: number): string | undefined {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return text.slice(open + 1, i);
  }
  return undefined;
}

const STRING = /^(['"])((?:\\.|(?!\1).)*)\1$|^`([^`$]*)`$/;
const FILE_DIR = /^(?:path\.)?dirname\((?:url\.)?fileURLToPath\(import\.meta\.url\)\)$|^import\.meta\.dirname$|^new URL\((['"])\.\/?\1, import\.meta\.url\)\.pathname$/;
const PATH_CALL = /^(?:path\.)?(resolve|join)\(/;
const URL_CALL = /^(?:fileURLToPath\()?new URL\((['"])([^'"]*)\1, import\.meta\.url\)(?:\.pathname|\.href)?\)?$/;

/** Evaluates a path expression to an absolute path, or undefined when it is not a static one. */
function evaluate(expr: string, dir: string, names: Map<string, string>): string | undefined {
  const e = expr.trim();
  const literal = STRING.exec(e);
  if (literal) return literal[2] ?? literal[3];
  if (FILE_DIR.test(e)) return dir;
  if (/^[A-Za-z_$][\w$]*$/.test(e)) return names.get(e);
  const url = URL_CALL.exec(e);
  if (url) return path.resolve(dir, url[2]!);
  const call = PATH_CALL.exec(e);
  if (call) {
    const inner = parenthesised(e, call[0].length - 1);
    if (inner === undefined || call[0].length + inner.length + 1 !== e.length) return undefined;
    const parts = splitArgs(inner).map((a) => evaluate(a, dir, names));
    if (parts.length === 0 || parts.some((p) => p === undefined) || !path.isAbsolute(parts[0]!)) return undefined;
    return call[1] === 'join' ? path.join(...(parts as string[])) : path.resolve(...(parts as string[]));
  }
  return undefined;
}

/** Every reference in one file's text (at `file`, relative to `root`) whose target lies outside `root`. */
export function outsideReferences(root: string, file: string, text: string): OutsideReference[] {
  const dir = path.dirname(path.join(root, file));
  const parent = path.dirname(root);
  // Shell and npm scripts run from the repository root (.ci/run starts with `cd` to it).
  const base = SOURCE.test(file) && !file.endsWith('.sh') ? dir : root;
  const found: OutsideReference[] = [];
  const names = new Map<string, string>();
  const lines = text.split('\n');
  lines.forEach((lineText, index) => {
    const seen = new Set<string>();
    const report = (target: string) => {
      if (inside(root, target) || seen.has(target)) return;
      seen.add(target);
      found.push({ file, line: index + 1, text: lineText.trim(), target });
    };
    // Relative literals: imports, URLs and paths alike are read against the file's folder (scripts: the root).
    for (const m of lineText.matchAll(/(['"`])((?:\.\.?\/)+[^'"`\s]*|\.\.)\1/g)) report(path.resolve(base, m[2]!));
    if (!SOURCE.test(file) || file.endsWith('.sh')) {
      for (const m of lineText.matchAll(/(?:^|[\s=:"'])((?:\.\.\/)+[\w.\-/]*)/g)) report(path.resolve(root, m[1]!));
    }
    // Absolute literals naming something that exists beside the clone (a sibling checkout, a workspace's shared
    // folder). Only existing paths count: a test's made-up '/tmp/evil.db' is data, and a clone may live in /tmp.
    for (const m of lineText.matchAll(/(['"`])(\/[^'"`\s]+)\1/g)) {
      if (inside(parent, m[2]!) && !inside(root, m[2]!) && existsSync(m[2]!)) report(m[2]!);
    }
    // Names bound to a static path, then every path.resolve/join and new URL over them.
    const binding = /^\s*(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(.+?);?\s*$/.exec(lineText);
    if (binding) {
      const value = evaluate(binding[2]!, dir, names);
      if (value !== undefined && path.isAbsolute(value)) names.set(binding[1]!, value);
    }
    for (const m of lineText.matchAll(/(?<![\w$.])(?:path\.)?(?:resolve|join)\(/g)) {
      const open = m.index! + m[0].length - 1;
      const inner = parenthesised(lineText, open);
      if (inner === undefined) continue;
      const value = evaluate(`${m[0]}${inner})`, dir, names);
      if (value !== undefined && path.isAbsolute(value)) report(value);
    }
  });
  return found;
}

export function scanRepository(root: string): OutsideReference[] {
  return repositoryScripts(root).flatMap((file) => outsideReferences(root, file, readFileSync(path.join(root, file), 'utf8')));
}
