// npm run sof:report - runs the SQL on FHIR v2 conformance suite (vendored in test/fixtures/sql-on-fhir) over HTTP against
// $run and writes bench/sof-report.json in the suite's test-report.schema.json format; prints the pass counts.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../server/app.ts';
import { judge, loadSuite, runCaseOverHttp, type Inject } from '../resources/views/conformance-suite.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(repoRoot, 'bench', 'sof-report.json');

const { app } = buildApp();
const inject = app.inject.bind(app) as unknown as Inject;
const report: Record<string, { tests: { name: string; result: { passed: boolean; error?: string } }[] }> = {};
let passed = 0;
let total = 0;
for (const file of loadSuite()) {
  const tests = [];
  for (const testCase of file.tests) {
    const result = judge(testCase, await runCaseOverHttp(inject, '/fhir', file, testCase));
    tests.push({ name: testCase.title, result });
    total++;
    if (result.passed) passed++;
  }
  report[file.file] = { tests };
  const ok = tests.filter((t) => t.result.passed).length;
  console.log(`${ok === tests.length ? 'ok  ' : 'FAIL'} ${file.file.padEnd(24)} ${ok}/${tests.length}`);
  for (const t of tests) if (!t.result.passed) console.log(`       - ${t.name}: ${t.result.error?.slice(0, 200)}`);
}
await app.close();
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify(report, null, 2) + '\n');
console.log(`SQL on FHIR v2 conformance: ${passed}/${total} passed (report: ${path.relative(repoRoot, out)})`);
