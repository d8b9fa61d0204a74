// The child process that runs one agent-supplied SQL query over a throwaway copy of the materialized views.
// Plain JavaScript on purpose: it starts with bare `node` (no TypeScript loader), and the parent kills it with SIGKILL
// when the time limit passes, the only way to stop SQLite inside a running statement (better-sqlite3 has no interrupt).
import Database from 'better-sqlite3';

process.once('message', (message) => {
  const { image, sql, maxRows } = message;
  try {
    const db = new Database(Buffer.from(image), { readonly: true });
    const stmt = db.prepare(sql);
    if (!stmt.reader || !stmt.readonly) throw new Error('only a read-only query that returns rows is allowed');
    const columns = stmt.columns().map((c) => c.name);
    const rows = [];
    let truncated = false;
    for (const row of stmt.raw(true).iterate()) {
      if (rows.length >= maxRows) {
        truncated = true;
        break;
      }
      rows.push(row);
    }
    process.send({ ok: true, columns, rows, truncated }, () => process.exit(0));
  } catch (err) {
    process.send({ ok: false, error: String(err && err.message ? err.message : err) }, () => process.exit(0));
  }
});
