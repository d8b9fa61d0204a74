// `ehr-gym seed`: the real command line in a child process.
import t from 'tap';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../../resources/storage/store.ts';

const cli = (args: string[]) => execFileSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '../../bin/ehr-gym.ts'), 'seed', ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

t.test('seed --ndjson --card --db writes NDJSON per type, the card, and the database', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ehr-gym-cli-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const db = join(dir, 'db.sqlite');
  const out = cli(['--patients', '3', '--seed', '4', '--ndjson', join(dir, 'nd'), '--card', join(dir, 'card.md'), '--db', db, '--stats']);
  t.match(out, /# ehr-gym dataset card/);
  t.ok(existsSync(join(dir, 'nd', 'Patient.ndjson')));
  t.equal(readFileSync(join(dir, 'nd', 'Patient.ndjson'), 'utf8').trim().split('\n').length, 3);
  const card = readFileSync(join(dir, 'card.md'), 'utf8');
  t.match(card, /Patients: 3/);
  const store = new Store({ path: db, readonly: true });
  t.teardown(() => store.close());
  const lines = ['Patient', 'Observation'].map((type) => readFileSync(join(dir, 'nd', `${type}.ndjson`), 'utf8').trim().split('\n').length);
  t.ok(store.countIn('base') > lines[0] + lines[1], 'the database holds the population');
  t.equal(JSON.parse(store.getMetadata('dataset')!).seed, 4);
});

t.test('seed rejects a bad patient count', async (t) => {
  t.throws(() => cli(['--patients', '0']), /whole number >= 1/);
});
