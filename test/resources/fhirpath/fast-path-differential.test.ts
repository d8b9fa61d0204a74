// The fast FHIRPath path must answer what fhirpath.js answers, wherever it answers at all: every R4 SearchParameter
// branch the registry compiles (typed, as the indexer uses it) and every view path of the SQL on FHIR suite and of the
// tasks (plain, as $run uses it), over seeded patients (with the seed's mess) and the suite's own resources.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import fhirpath from 'fhirpath';
import r4 from 'fhirpath/fhir-context/r4';
import { compilePlainPath, compileTypedPath, FALLBACK } from '../../../resources/fhirpath/fast-path.ts';
import { loadDefinitions, splitUnion } from '../../../resources/search/registry.ts';
import { resourceTypes } from '../../../resources/validation/validate.ts';
import { viewFunctions } from '../../../resources/views/fhirpath-functions.ts';
import { loadSuite } from '../../../resources/views/conformance-suite.ts';
import { generatePopulation } from '../../../seed/generate.ts';
import { DEFAULT_MESS } from '../../../seed/index.ts';

type Resource = Record<string, unknown>;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

const seeded: Resource[] = [];
for (const batch of generatePopulation({ patients: 6, seed: 11, mess: DEFAULT_MESS })) seeded.push(...(batch.resources as unknown as Resource[]));
const suite = loadSuite();
const samples = [...seeded, ...suite.flatMap((f) => f.resources)];
const byType = new Map<string, Resource[]>();
for (const r of samples) {
  const type = r.resourceType as string;
  byType.set(type, [...(byType.get(type) ?? []), r]);
}

t.test('typed: every R4 SearchParameter branch the fast path compiles gives fhirpath.js values', async (t) => {
  const types = new Set(resourceTypes);
  let compiled = 0;
  let evaluated = 0;
  let nonEmpty = 0;
  let multiple = 0;
  const differences: string[] = [];
  for (const def of loadDefinitions()) {
    if (def.type === 'special' || !def.expression) continue;
    for (const branch of splitUnion(def.expression)) {
      const rootType = /^\(?([A-Za-z]+)/.exec(branch)?.[1] ?? '';
      const bases = rootType === 'Resource' || rootType === 'DomainResource' ? [...byType.keys()] : [rootType];
      // The reference fhirpath.js is given the same rewrite the indexer gives it (resolve() cannot fetch).
      const rewritten = branch.replace(/\.where\(resolve\(\) is ([A-Z][A-Za-z]+)\)/g, ".where(reference.startsWith('$1/') or reference.contains('/$1/'))");
      for (const type of bases) {
        if (!types.has(type)) continue;
        const fast = compileTypedPath(branch, type);
        if (!fast) continue;
        compiled++;
        for (const resource of byType.get(type) ?? []) {
          const values = fast(resource).map((v) => v.value);
          let expected: unknown[];
          try {
            expected = fhirpath.evaluate(resource, rewritten, {}, r4 as never) as unknown[];
          } catch (err) {
            // `(X.component.value as Quantity)` over several components: fhirpath.js insists on a singleton; the
            // indexer takes every component's value, which is what ofType() gives (and what R5's expressions say).
            if (!/singleton on left side of 'as'/.test((err as Error).message)) throw err;
            expected = fhirpath.evaluate(resource, rewritten.replace(/^\((.*) as ([A-Za-z]+)\)/, '$1.ofType($2)'), {}, r4 as never) as unknown[];
            multiple++;
          }
          evaluated++;
          if (values.length > 0) nonEmpty++;
          if (JSON.stringify(values) !== JSON.stringify(expected)) differences.push(`${type} ${branch} on ${type}/${String(resource.id)}`);
        }
      }
    }
  }
  t.ok(compiled > 1500, `most R4 branches are in the subset (${compiled})`);
  t.ok(nonEmpty > 2000, `the samples exercise them (${evaluated} evaluations, ${nonEmpty} with values)`);
  t.ok(multiple > 0, `including 'as' over several items (${multiple}), compared with ofType()`);
  t.same(differences, [], 'no branch answers differently');
});

/** Every `path` / `forEach` string of a ViewDefinition (nested selects and unionAll included). */
function viewPaths(value: unknown, out: Set<string>): void {
  if (Array.isArray(value)) for (const v of value) viewPaths(v, out);
  else if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if ((key === 'path' || key === 'forEach' || key === 'forEachOrNull') && typeof v === 'string') out.add(v);
      else viewPaths(v, out);
    }
  }
}

/** The view paths written in the tasks' ViewDefinitions (TypeScript sources: `path: '...'`). */
function taskViewPaths(out: Set<string>): void {
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(file);
      else if (entry.name.endsWith('.ts')) {
        const text = readFileSync(file, 'utf8');
        if (!text.includes('ViewDefinition')) continue;
        for (const m of text.matchAll(/\b(?:path|forEach|forEachOrNull): ?'((?:[^'\\]|\\.)*)'/g)) out.add(m[1].replace(/\\'/g, "'"));
      }
    }
  };
  visit(path.join(root, 'tasks'));
}

t.test('plain: every view path the fast path compiles gives fhirpath.js values or steps aside', async (t) => {
  const paths = new Set<string>();
  for (const file of suite) for (const c of file.tests) viewPaths(c.view, paths);
  const fromSuite = paths.size;
  taskViewPaths(paths);
  t.ok(fromSuite > 100 && paths.size > fromSuite, `paths from the suite (${fromSuite}) and the tasks (${paths.size - fromSuite})`);
  let compiled = 0;
  let answered = 0;
  let fellBack = 0;
  const differences: string[] = [];
  for (const expression of paths) {
    const fast = compilePlainPath(expression, viewFunctions);
    if (!fast) continue;
    compiled++;
    const reference = fhirpath.compile(expression, r4 as never, { userInvocationTable: viewFunctions, resolveInternalTypes: true } as never);
    for (const resource of samples) {
      const result = fast(resource);
      if (result === FALLBACK) {
        fellBack++;
        continue;
      }
      answered++;
      const expected = reference(resource, {});
      if (JSON.stringify(result) !== JSON.stringify(expected)) differences.push(`${expression} on ${String(resource.resourceType)}/${String(resource.id)}`);
    }
  }
  t.ok(compiled > 40, `paths in the subset: ${compiled}`);
  t.ok(answered > fellBack, `answered directly ${answered} times, stepped aside ${fellBack}`);
  t.same(differences, [], 'no path answers differently');
});
