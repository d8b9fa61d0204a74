// Every case of the official SQL on FHIR v2 suite (vendored in test/fixtures/sql-on-fhir), run over HTTP against $run.
import t from 'tap';
import { buildApp } from '../../../server/app.ts';
import { judge, loadSuite, runCaseOverHttp, SUITE_DIR, type Inject } from '../../../resources/views/conformance-suite.ts';

const { app } = buildApp();
t.teardown(() => app.close());
const inject = app.inject.bind(app) as unknown as Inject;

const suite = loadSuite();
t.ok(SUITE_DIR.endsWith('/test/fixtures/sql-on-fhir'), 'the suite is read from inside the repository');
t.equal(suite.reduce((n, f) => n + f.tests.length, 0), 134, 'all 134 cases are loaded');

for (const file of suite) {
  t.test(file.file, async (t) => {
    for (const testCase of file.tests) {
      const outcome = await runCaseOverHttp(inject, '/fhir', file, testCase);
      const result = judge(testCase, outcome);
      t.ok(result.passed, testCase.title, result.passed ? {} : { error: result.error });
    }
  });
}
