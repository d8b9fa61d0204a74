// The reference solution and the case agents are independent of the grader (issue 13): an oracle that imports the
// grader's logic cannot prove the grader right, and a case agent that imports project code is no outside client.
// Shared clinical facts live in a facts module (the task's facts.ts or graders/lib) that both sides may import.
import t from 'tap';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const tasksDir = path.join(root, 'tasks');

/** Every module specifier a TypeScript file imports (static imports, re-exports and dynamic imports of literals). */
export function importsOf(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'";]*?from\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)) {
    out.push((m[1] ?? m[2] ?? m[3])!);
  }
  return out;
}

function taskDirs(): string[] {
  return readdirSync(tasksDir, { withFileTypes: true }).filter((d) => d.isDirectory())
    .flatMap((s) => readdirSync(path.join(tasksDir, s.name), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => path.join(tasksDir, s.name, d.name)))
    .filter((d) => existsSync(path.join(d, 'task.json')));
}

const GRADER = /(^|\/)grader(\.ts)?$/;
const CASE_HELPER = path.join(root, 'contracts', 'case-http.ts');

/** What a solution may not import: its grader, or any task's grader. */
function solutionProblems(file: string, text: string): string[] {
  return importsOf(text).filter((spec) => GRADER.test(spec)).map((spec) => `${path.relative(root, file)} imports ${spec}`);
}

/** What a case may import: the case HTTP helper, FHIR types, Node built-ins; nothing else of the project. */
function caseProblems(file: string, text: string): string[] {
  return importsOf(text).filter((spec) => {
    if (spec.startsWith('node:') || spec === '@medplum/fhirtypes') return false;
    if (spec.startsWith('.')) return path.resolve(path.dirname(file), spec) !== CASE_HELPER;
    return true;
  }).map((spec) => `${path.relative(root, file)} imports ${spec}`);
}

t.test('the rules catch what they forbid', async (t) => {
  const sol = path.join(tasksDir, 'x', 'y', 'solution.ts');
  t.same(solutionProblems(sol, "import { chadsvasc } from './grader.ts';\nimport { facts } from './facts.ts';"), ['tasks/x/y/solution.ts imports ./grader.ts']);
  t.same(solutionProblems(sol, "export { a } from './grader';"), ['tasks/x/y/solution.ts imports ./grader']);
  t.same(solutionProblems(sol, "import type { SolutionContext } from '../../../contracts/task.ts';\nimport { inCodeSet } from '../../../graders/lib/index.ts';"), []);
  const c = path.join(tasksDir, 'x', 'y', 'cases', 'correct', 'a.ts');
  t.same(caseProblems(c, [
    "import type { CaseContext } from '../../../../../contracts/case-http.ts';",
    "import type { MedicationRequest } from '@medplum/fhirtypes';",
    "import { chadsvasc } from '../../grader.ts';",
    "import solution from '../../solution.ts';",
    "import { isMedication } from '../../../../../graders/lib/index.ts';",
  ].join('\n')), ['../../grader.ts', '../../solution.ts', '../../../../../graders/lib/index.ts'].map((s) => `tasks/x/y/cases/correct/a.ts imports ${s}`));
});

t.test('no reference solution imports a grader', async (t) => {
  const dirs = taskDirs();
  t.ok(dirs.length >= 32, `${dirs.length} tasks scanned`);
  const problems = dirs.flatMap((d) => {
    const file = path.join(d, 'solution.ts');
    return solutionProblems(file, readFileSync(file, 'utf8'));
  });
  t.same(problems, []);
});

t.test('case agents are plain HTTP clients', async (t) => {
  const problems: string[] = [];
  for (const d of taskDirs()) {
    for (const kind of ['correct', 'wrong']) {
      const dir = path.join(d, 'cases', kind);
      if (!existsSync(dir)) continue;
      for (const f of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
        const file = path.join(dir, f);
        problems.push(...caseProblems(file, readFileSync(file, 'utf8')));
      }
    }
  }
  t.same(problems, []);
});
