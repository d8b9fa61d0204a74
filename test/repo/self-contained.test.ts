// A clone of the repository on its own runs everything it ships: no source, test or script points outside its root
// (issue 23). The scanner is tested on fixtures first, so a scanner that finds nothing cannot pass the real check.
import t from 'tap';
import path from 'node:path';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { outsideReferences, repositoryScripts, scanRepository } from './outside-paths.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const targets = (file: string, text: string) => outsideReferences(root, file, text).map((r) => path.relative(root, r.target));

t.test('the scanner finds each way of pointing outside', async (t) => {
  t.same(targets('resources/views/suite.ts', [
    "const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');",
    "export const SUITE_DIR = path.resolve(repoRoot, '..', 'shared', 'sql-on-fhir-tests');",
  ].join('\n')), [path.join('..', 'shared', 'sql-on-fhir-tests')], 'path.resolve over a name bound to the root');
  t.same(targets('test/a/b.test.ts', "const here = dirname(fileURLToPath(import.meta.url));\nconst d = join(here, '../../../x');"),
    [path.join('..', 'x')], 'path.join over the file folder');
  t.same(targets('test/a/b.test.ts', "import data from '../../../../shared/data.json';"), [path.join('..', '..', 'shared', 'data.json')], 'a relative import');
  t.same(targets('bin/x.ts', "const u = new URL('../../elsewhere/file.json', import.meta.url);"), [path.join('..', 'elsewhere', 'file.json')], 'new URL');
  // A clone with a real folder beside it (as a workspace's shared/ is), and a made-up path that exists nowhere.
  const workspace = mkdtempSync(path.join(tmpdir(), 'outside-paths-'));
  t.teardown(() => rmSync(workspace, { recursive: true, force: true }));
  mkdirSync(path.join(workspace, 'repo'));
  mkdirSync(path.join(workspace, 'shared', 'hooks'), { recursive: true });
  const beside = (text: string) => outsideReferences(path.join(workspace, 'repo'), 'bin/x.ts', text).map((r) => path.relative(path.join(workspace, 'repo'), r.target));
  t.same(beside(`const d = '${path.join(workspace, 'shared', 'hooks')}';`), [path.join('..', 'shared', 'hooks')], 'an absolute path to a folder beside the clone');
  t.same(beside(`const d = '${path.join(workspace, 'evil.db')}';`), [], 'a made-up absolute path (attack data in a test) is not a dependency');
  t.same(targets('.ci/run', 'cp -r ../shared/sql-on-fhir-tests test/'), [path.join('..', 'shared', 'sql-on-fhir-tests')], 'a shell script');
  t.same(targets('package.json', '"sof:report": "tsx ../tools/report.ts"'), [path.join('..', 'tools', 'report.ts')], 'an npm script');
});

t.test('the scanner leaves paths inside and non-path code alone', async (t) => {
  t.same(targets('test/a/b.test.ts', [
    "import { x } from '../../server/app.ts';",
    "const here = dirname(fileURLToPath(import.meta.url));",
    "const suite = path.resolve(here, '..', '..', 'test', 'fixtures');",
    "const label = parts.join('/'); const u = segments.join('../');",
    "const abs = '/fhir/Patient/../x';",
  ].join('\n')), []);
});

t.test('no file of the repository points outside it', async (t) => {
  const files = repositoryScripts(root);
  t.ok(files.includes('resources/views/conformance-suite.ts') && files.includes('.ci/run') && files.includes('package.json'), 'sources, scripts and package.json are scanned');
  const found = scanRepository(root);
  t.same(found.map((r) => `${r.file}:${r.line} -> ${r.target}`), [], 'every path stays inside the repository');
});
