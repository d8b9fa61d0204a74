// `ehr-gym view`'s server over a real socket: the page at /, rebuilt from the files on each load (a run still writing
// episodes shows the new ones on reload), each trajectory at /episode when the page opens it, nothing else served
// (no path out of the results directory), and no data that could close its <script> element.
import t from 'tap';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveReport } from '../../../harness/report/serve.ts';
import { scriptJson } from '../../../harness/report/html.ts';

const fixtures = fileURLToPath(new URL('../../fixtures/report-runs/', import.meta.url));
const embedded = (html: string) => JSON.parse(/<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(html)![1]);

t.test('GET / is the report, rebuilt on every load; other paths and methods are refused', async (t) => {
  const dir = join(t.testdir({}), 'run');
  cpSync(join(fixtures, 'run-b'), dir, { recursive: true });
  const server = await serveReport([dir]);
  t.teardown(() => server.close());
  t.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);

  const first = await fetch(server.url);
  t.equal(first.status, 200);
  t.match(first.headers.get('content-type'), /^text\/html/);
  const html = await first.text();
  t.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src 'none'[^"]*; connect-src 'self'">/, 'fetches only from its own server');
  const data = embedded(html);
  t.equal(data.runs[0].episodes.length, 4);
  t.ok(data.lazy, 'trajectories are fetched when opened');
  t.same(data.runs[0].trajectories, {});

  const id = 'nephrology__hyperkalemia-ace-inhibitor__hk-okafor__t1';
  const one = await fetch(`${server.url}episode?run=0&id=${id}`);
  t.equal(one.status, 200);
  const opened = await one.json();
  t.equal(opened.id, id);
  t.equal(opened.steps.length, 6);
  t.equal(opened.changes.length, 2);
  for (const bad of [`run=0&id=..%2Fsummary`, `run=0&id=nope`, `run=1&id=${id}`, `id=${id}`]) {
    t.equal((await fetch(`${server.url}episode?${bad}`)).status, 404, bad);
  }

  // The run writes another episode: a reload shows it.
  const file = join(dir, 'episodes', 'nephrology__hyperkalemia-ace-inhibitor__hk-ramos__t1.json');
  const episode = JSON.parse(readFileSync(file, 'utf8'));
  writeFileSync(join(dir, 'episodes', 'nephrology__hyperkalemia-ace-inhibitor__hk-ramos__t2.json'), JSON.stringify({ ...episode, trial: 2 }));
  t.equal(embedded(await (await fetch(server.url)).text()).runs[0].episodes.length, 5);

  t.equal((await fetch(`${server.url}episodes.json`)).status, 404);
  t.equal((await fetch(server.url, { method: 'POST', body: '{}' })).status, 405);
  t.equal((await fetch(server.url, { method: 'HEAD' })).status, 200);
});

t.test('embedded data cannot end its script element', async (t) => {
  const text = scriptJson({ answer: '</script><script>alert(1)</script>', sep: '\u2028' });
  t.notMatch(text, /<\/script/i);
  t.same(JSON.parse(text), { answer: '</script><script>alert(1)</script>', sep: '\u2028' }, 'and still parses to the same value');
});
