import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultTasksDir, discoverTaskIds, readTaskSpec } from '../../harness/task-loader.ts';
import { readmeTablesBlock, taskTablesBlock, taskTablesMarkdown } from '../../harness/task-list.ts';

t.test('tasks/README.md holds exactly the generated tables (run `ehr-gym task list --write` after adding a task)', async (t) => {
  const readme = readFileSync(join(defaultTasksDir, 'README.md'), 'utf8');
  const specs = discoverTaskIds().map((id) => readTaskSpec(id));
  t.equal(readmeTablesBlock(readme), taskTablesBlock(specs));
});

t.test('the tables count checkpoints per category', async (t) => {
  const specs = discoverTaskIds().map((id) => readTaskSpec(id));
  const md = taskTablesMarkdown(specs);
  const total = specs.reduce((n, s) => n + s.checkpoints.length, 0);
  t.match(md, new RegExp(`\\| \\*\\*all\\*\\* \\|.*\\| ${total} \\|`));
  for (const s of specs) t.match(md, `\`${s.id}\``);
});
