// The SQL on FHIR v2 conformance suite (vendored in test/fixtures/sql-on-fhir: the spec's own tests/ folder) as data, and the
// comparison rules its README gives: rows compare as multisets of objects, column order matters only with
// `expectColumns`, and `expectError` cases must fail. Shared by the tap test and `npm run sof:report`.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseJsonKeepingDecimals, stringifyKeepingDecimals } from './precise-json.ts';

export interface ConformanceCase {
  title: string;
  view: unknown;
  expect?: Record<string, unknown>[];
  expectError?: boolean;
  expectColumns?: string[];
  expectCount?: number;
}

export interface ConformanceFile {
  file: string;
  resources: Record<string, unknown>[];
  tests: ConformanceCase[];
}

/** What running one view gave: rows and column names in order, or an error. */
export type ViewOutcome = { rows: Record<string, unknown>[]; columns: string[] } | { error: string };

export interface CaseResult {
  passed: boolean;
  error?: string;
}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SUITE_DIR = path.resolve(repoRoot, 'test', 'fixtures', 'sql-on-fhir');

export function loadSuite(dir = SUITE_DIR): ConformanceFile[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json') && !f.endsWith('.schema.json'))
    .sort()
    .map((file) => {
      // Decimals keep their digits (fn_boundary relies on `1.0` having one decimal place).
      const json = parseJsonKeepingDecimals(readFileSync(path.join(dir, file), 'utf8')) as { resources: Record<string, unknown>[]; tests: ConformanceCase[] };
      return { file, resources: json.resources, tests: json.tests };
    });
}

/** A canonical text per row (keys sorted, values as JSON), for multiset comparison. */
function canonicalRow(row: Record<string, unknown>): string {
  return JSON.stringify(Object.keys(row).sort().map((k) => [k, row[k]]));
}

export function judge(testCase: ConformanceCase, outcome: ViewOutcome): CaseResult {
  if ('error' in outcome) {
    return testCase.expectError ? { passed: true } : { passed: false, error: outcome.error };
  }
  if (testCase.expectError) return { passed: false, error: `expected an error, got ${outcome.rows.length} rows` };
  if (testCase.expectColumns && JSON.stringify(outcome.columns) !== JSON.stringify(testCase.expectColumns)) {
    return { passed: false, error: `columns ${JSON.stringify(outcome.columns)}, expected ${JSON.stringify(testCase.expectColumns)}` };
  }
  if (testCase.expectCount !== undefined) {
    return outcome.rows.length === testCase.expectCount
      ? { passed: true }
      : { passed: false, error: `${outcome.rows.length} rows, expected ${testCase.expectCount}` };
  }
  const got = outcome.rows.map(canonicalRow).sort();
  const want = (testCase.expect ?? []).map(canonicalRow).sort();
  if (JSON.stringify(got) === JSON.stringify(want)) return { passed: true };
  return { passed: false, error: `rows ${JSON.stringify(outcome.rows)}, expected ${JSON.stringify(testCase.expect)}` };
}

/** The slice of Fastify's `inject` the runner needs (kept structural so this module does not depend on Fastify). */
export type Inject = (request: {
  method: 'POST';
  url: string;
  headers: Record<string, string>;
  payload: string;
}) => Promise<{ statusCode: number; body: string }>;

/** Runs one case over HTTP: `POST [base]/ViewDefinition/$run` with the view and the file's resources inline. */
export async function runCaseOverHttp(inject: Inject, base: string, file: ConformanceFile, testCase: ConformanceCase): Promise<ViewOutcome> {
  const parameters = {
    resourceType: 'Parameters',
    parameter: [
      { name: 'viewResource', resource: testCase.view },
      ...file.resources.map((resource) => ({ name: 'resource', resource })),
    ],
  };
  const response = await inject({
    method: 'POST',
    url: `${base}/ViewDefinition/$run`,
    headers: { 'content-type': 'application/fhir+json', accept: 'application/json' },
    payload: stringifyKeepingDecimals(parameters),
  });
  if (response.statusCode !== 200) {
    let diagnostics = response.body;
    try {
      diagnostics = (JSON.parse(response.body) as { issue?: { diagnostics?: string }[] }).issue?.map((i) => i.diagnostics).join('; ') ?? diagnostics;
    } catch { /* not JSON: keep the text */ }
    return { error: `HTTP ${response.statusCode}: ${diagnostics}` };
  }
  const rows = JSON.parse(response.body) as Record<string, unknown>[];
  return { rows, columns: rows.length > 0 ? Object.keys(rows[0]) : [] };
}
