// A log written before the server recorded `write` gets the flag once, when it is opened; readers then take it as
// stored (one definition of a write: server/write-kind.ts for new rows, this migration for old ones).
import Database from 'better-sqlite3';
import t from 'tap';
import { AuditLog } from '../../../server/gym/audit-log.ts';

t.test('rows without the write flag are migrated once, by method', async (t) => {
  const db = new Database(':memory:');
  db.exec(`CREATE TABLE gym_audit (seq INTEGER PRIMARY KEY AUTOINCREMENT, sandbox TEXT NOT NULL, time TEXT NOT NULL,
    method TEXT NOT NULL, path TEXT NOT NULL, query TEXT NOT NULL, status INTEGER NOT NULL, request_body TEXT,
    resource_ids TEXT NOT NULL, latency_ms REAL NOT NULL, tool TEXT)`);
  const insert = db.prepare("INSERT INTO gym_audit (sandbox, time, method, path, query, status, resource_ids, latency_ms) VALUES ('s', 't', ?, ?, '', 200, '[]', 1)");
  insert.run('GET', 'Patient/1');
  insert.run('POST', 'MedicationRequest');
  const log = new AuditLog(db);
  t.same(log.entries('s').map((e) => [e.method, e.write]), [['GET', false], ['POST', true]]);
  t.same(log.counts('s'), { requests: 2, writeRequests: 1 });
  db.close();
});
