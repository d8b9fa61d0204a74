// The report in a real browser: headless Chromium (Debian's `chromium` package, which .ci/run installs) driven through
// playwright-core. `ehr-gym view` serves the fixture runs (test/fixtures/report-runs) as a user starts it; the page
// must show the right numbers, narrow the episode list with each filter, show a trajectory's diffs and jump to the
// step a checkpoint's evidence cites, compare the two runs, raise no console error, and ask for nothing but itself
// (`ehr-gym report` writes a file that works offline). A screenshot of each view is taken; with
// EHR_GYM_WRITE_SCREENSHOTS=1 they are written to docs/screenshots/ (the README shows them), else to a scratch folder.
import t from 'tap';
import { spawn, execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { chromium, type Browser, type Page } from 'playwright-core';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const fixtures = join(root, 'test/fixtures/report-runs');
const executable = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => p && existsSync(p));
const OKAFOR_T1 = 'nephrology__hyperkalemia-ace-inhibitor__hk-okafor__t1';

if (!executable && !process.env.CI) {
  t.pass('skipped: Chromium is not installed (apt-get install chromium, or set CHROMIUM_PATH; .ci/run installs it)', { skip: true });
} else {
  t.ok(executable, 'Chromium is installed (.ci/run installs it)');
  const shots = process.env.EHR_GYM_WRITE_SCREENSHOTS === '1' ? join(root, 'docs/screenshots') : t.testdir({});
  const browser: Browser = await chromium.launch({ executablePath: executable!, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  t.teardown(() => browser.close());

  /** A page that records console errors, uncaught exceptions and every URL it requests. */
  async function newPage(): Promise<{ page: Page; errors: string[]; requests: string[] }> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    const requests: string[] = [];
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('request', (r) => requests.push(r.url()));
    return { page, errors, requests };
  }

  // `ehr-gym view A B --port 0`, as a user runs it; its first line names the URL.
  const view = spawn(process.execPath, ['--import', 'tsx', join(root, 'bin/ehr-gym.ts'), 'view', join(fixtures, 'run-a'), join(fixtures, 'run-b'), '--port', '0'], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  t.teardown(() => { view.kill('SIGTERM'); });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    view.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
      if (m) resolve(m[1]);
    });
    view.once('exit', (code) => reject(new Error(`ehr-gym view exited (${code}): ${out}`)));
  });

  t.test('overview: the fixture run\'s figures, infrastructure errors apart', async (t) => {
    const { page, errors, requests } = await newPage();
    await page.goto(url);
    const card = (id: string) => page.getByTestId(id).locator('.card-value').innerText();
    t.equal(await card('pass1'), '33.3%', '2 passes of 6 scored episodes (not 2 of 8)');
    t.equal(await card('checkpoint-score'), '73.3%');
    t.equal(await card('infra-errors'), '2');
    t.equal(await card('tokens'), '32,720');
    t.equal(await card('cost'), '$0.0932');
    t.match(await page.getByTestId('passk-1').innerText(), /25\.0%/, 'pass^1 averages tasks');
    t.match(await page.getByTestId('passk-2').innerText(), /8\.3%/, 'pass^2 = mean(0, C(2,2)/C(4,2)), not pass@1 squared');
    t.match(await page.getByTestId('by-specialty').innerText(), /nephrology\s+50\.0%/);
    t.match(await page.getByTestId('by-category').innerText(), /clinical_reasoning\s+50\.0%\s+4\/8/);
    t.equal(await page.getByTestId('infra-list').locator('li').count(), 2);
    await page.screenshot({ path: join(shots, 'overview.png'), fullPage: true });
    t.same(errors, [], 'no console errors');
    t.ok(requests.every((r) => r.startsWith(url)), `only the page itself is requested: ${requests.join(', ')}`);
    await page.close();
  });

  t.test('per-task table: filter and sort', async (t) => {
    const { page, errors } = await newPage();
    await page.goto(`${url}#/r0/tasks`);
    const rows = page.getByTestId('task-row');
    t.equal(await rows.count(), 2);
    t.match(await rows.nth(1).innerText(), /50\.0% \(2\/4\).*repeat_potassium_ordered \(2\)/s);
    await page.locator('th[data-sort=passRate]').click();
    await page.locator('th[data-sort=passRate]').click();
    t.equal(await rows.first().getAttribute('data-task'), 'nephrology/hyperkalemia-ace-inhibitor', 'highest pass rate first after sorting descending');
    await page.getByTestId('task-filter').fill('endo');
    t.equal(await rows.count(), 1);
    t.equal(await rows.first().getAttribute('data-task'), 'endocrinology/a1c-glycemic-control');
    await page.getByTestId('task-filter').fill('');
    await page.screenshot({ path: join(shots, 'tasks.png'), fullPage: true });
    t.same(errors, []);
    await page.close();
  });

  t.test('episode list: each filter narrows it', async (t) => {
    const { page, errors } = await newPage();
    await page.goto(`${url}#/r0/episodes`);
    const rows = page.getByTestId('episode-row');
    const ids = async () => (await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-id')))).sort();
    t.equal(await rows.count(), 8);
    await page.getByTestId('filter-failed').check();
    t.same(await ids(), [
      'endocrinology__a1c-glycemic-control__dm-haddad__t1', 'endocrinology__a1c-glycemic-control__dm-haddad__t2',
      'nephrology__hyperkalemia-ace-inhibitor__hk-okafor__t2', 'nephrology__hyperkalemia-ace-inhibitor__hk-ramos__t2',
    ], 'failed only: scored failures, not the infrastructure errors');
    await page.getByTestId('filter-task').selectOption('nephrology/hyperkalemia-ace-inhibitor');
    t.equal(await rows.count(), 2);
    await page.getByTestId('filter-checkpoint').selectOption('repeat_potassium_ordered');
    t.equal(await rows.count(), 2);
    await page.getByTestId('filter-task').selectOption('');
    await page.getByTestId('filter-checkpoint').selectOption('latest_a1c_value');
    t.same(await ids(), ['endocrinology__a1c-glycemic-control__dm-haddad__t1', 'endocrinology__a1c-glycemic-control__dm-haddad__t2']);
    await page.getByTestId('filter-checkpoint').selectOption('');
    await page.getByTestId('filter-failed').uncheck();
    await page.getByTestId('filter-cause').selectOption('infra_error');
    t.same(await ids(), ['endocrinology__a1c-glycemic-control__dm-chen__t1', 'endocrinology__a1c-glycemic-control__dm-chen__t2']);
    await page.getByTestId('filter-cause').selectOption('');
    await page.getByTestId('filter-specialty').selectOption('nephrology');
    t.equal(await rows.count(), 4);
    t.match(await page.getByTestId('episode-count').innerText(), /4 of 8/);
    await page.getByTestId('filter-specialty').selectOption('');
    await page.getByTestId('filter-failed').check();
    await page.screenshot({ path: join(shots, 'episodes.png'), fullPage: true });
    t.same(errors, []);
    await page.close();
  });

  t.test('trajectory: timeline, folded results, diffs of each write, evidence linked to steps', async (t) => {
    const { page, errors } = await newPage();
    await page.goto(`${url}#/r0/episodes`);
    await page.locator(`[data-id="${OKAFOR_T1}"] a`).click();
    await page.getByTestId('episode').waitFor();
    t.equal(await page.getByTestId('step').count(), 6);
    t.equal(await page.getByTestId('tool-call').count(), 5);
    const folded = page.locator('details[data-testid=tool-result]');
    t.ok(await folded.count() >= 2, 'long search results are folded');
    t.equal(await folded.first().getAttribute('open'), null, 'and closed until opened');

    const diffs = page.getByTestId('diff');
    t.equal(await diffs.count(), 2, 'the patched order and the created lab order');
    const order = page.locator('[data-testid=diff][data-resource="MedicationRequest/hk-okafor-lisinopril"]');
    t.ok((await order.locator('.del').allInnerTexts()).some((x) => x.includes('"status": "active"')), 'the old status');
    t.ok((await order.locator('.add').allInnerTexts()).some((x) => x.includes('"status": "stopped"')), 'the new status');
    t.ok((await order.locator('.add').allInnerTexts()).some((x) => x.includes('"Hyperkalemia"')), 'the reason added');
    t.ok(await order.locator('.fold').count() >= 1, 'long unchanged stretches folded');
    const patchStep = page.locator('#step-4');
    t.equal(await patchStep.getByTestId('diff').count(), 1, 'the diff sits at the step that wrote it');

    // The retrieval checkpoint's evidence cites the search request: its link jumps to that step.
    const verdict = page.locator('[data-testid=verdict][data-checkpoint=reviewed_potassium]');
    await verdict.locator('.evidence-link').first().click();
    t.match(await page.locator('.step.highlight').getAttribute('id'), 'step-3');
    t.match(await page.locator('.step.highlight').innerText(), /GET Observation\?patient=hk-okafor&code=http:\/\/loinc\.org\|2823-3/);
    await page.locator('[data-testid=verdict][data-checkpoint=ace_inhibitor_stopped] .evidence-link').first().click();
    t.equal(await page.locator('.step.highlight').getAttribute('id'), 'step-4', 'the action checkpoint links to the write');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(shots, 'trajectory.png'), fullPage: true });

    // An infrastructure-ended episode says so.
    await page.goto(`${url}#/r0/episode/endocrinology__a1c-glycemic-control__dm-chen__t1`);
    t.match(await page.getByTestId('infra-error').innerText(), /503/);
    t.same(errors, []);
    await page.close();
  });

  t.test('comparison of the two runs, per task', async (t) => {
    const { page, errors } = await newPage();
    await page.goto(url);
    await page.getByTestId('nav-compare').click();
    const rows = page.getByTestId('compare-row');
    t.equal(await rows.count(), 2);
    t.match(await rows.first().innerText(), /endocrinology\/a1c-glycemic-control\s+0\.0% \(0\/2\)\s+100\.0% \(2\/2\)\s+\+100\.0 pts/);
    t.match(await rows.nth(1).innerText(), /50\.0% \(2\/4\)\s+100\.0% \(2\/2\)\s+\+50\.0 pts/);
    t.match(await page.getByTestId('compare-change').innerText(), /\+66\.7 pts/);
    await page.screenshot({ path: join(shots, 'compare.png'), fullPage: true });
    // The run selector switches the other views to run B.
    await page.goto(`${url}#/r1/overview`);
    t.equal(await page.getByTestId('pass1').locator('.card-value').innerText(), '100.0%');
    t.same(errors, []);
    await page.close();
  });

  t.test('ehr-gym report writes one file that works offline', async (t) => {
    const out = join(t.testdir({}), 'report.html');
    await promisify(execFile)(process.execPath, ['--import', 'tsx', join(root, 'bin/ehr-gym.ts'), 'report', join(fixtures, 'run-a'), '--out', out], { cwd: root });
    const { page, errors, requests } = await newPage();
    await page.goto(pathToFileURL(out).href);
    t.equal(await page.getByTestId('pass1').locator('.card-value').innerText(), '33.3%');
    t.equal(await page.getByTestId('nav-compare').count(), 0, 'one run: no comparison');
    await page.goto(`${pathToFileURL(out).href}#/r0/episode/${OKAFOR_T1}`);
    t.equal(await page.getByTestId('diff').count(), 2);
    t.same([...new Set(requests.map((r) => r.split('#')[0]))], [pathToFileURL(out).href], 'nothing fetched but the file itself');
    t.same(errors, []);
    await page.close();
  });
}
