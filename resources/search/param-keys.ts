// Integer keys for (resource type, parameter code) pairs, stored in the database (`search_param`) so they survive
// restarts. Index rows carry the key instead of two text columns.
import type Database from 'better-sqlite3';

const cache = new WeakMap<Database.Database, ParamKeys>();

export class ParamKeys {
  private readonly keys = new Map<string, number>();
  private readonly select;
  private readonly insert;

  private constructor(db: Database.Database) {
    this.select = db.prepare<[string, string], { key: number }>('SELECT key FROM search_param WHERE type = ? AND code = ?');
    this.insert = db.prepare('INSERT INTO search_param (type, code) VALUES (?, ?)');
  }

  /** Load every stored key, then create the missing ones for `pairs` (run when the store opens, not mid-request). */
  ensure(db: Database.Database, pairs: [type: string, code: string][]): void {
    for (const row of db.prepare('SELECT key, type, code FROM search_param').all() as { key: number; type: string; code: string }[]) {
      this.keys.set(`${row.type}.${row.code}`, row.key);
    }
    db.transaction(() => { for (const [type, code] of pairs) this.key(type, code); })();
  }

  static of(db: Database.Database): ParamKeys {
    let k = cache.get(db);
    if (!k) cache.set(db, (k = new ParamKeys(db)));
    return k;
  }

  /**
   * The key, created on first use. Keys are normally all created by `ensure` when the store opens: a key created
   * inside a write transaction that later rolls back would stay cached without its row.
   */
  key(type: string, code: string): number {
    const name = `${type}.${code}`;
    let key = this.keys.get(name);
    if (key === undefined) {
      key = this.select.get(type, code)?.key ?? Number(this.insert.run(type, code).lastInsertRowid);
      this.keys.set(name, key);
    }
    return key;
  }

  /** Every known key as plain data (for a worker thread that extracts index rows without the database). */
  entries(): [name: string, key: number][] {
    return [...this.keys];
  }

  /** The key if any row ever used it; -1 (matches no row) otherwise. Reads never create keys. */
  find(type: string, code: string): number {
    const name = `${type}.${code}`;
    const known = this.keys.get(name);
    if (known !== undefined) return known;
    const found = this.select.get(type, code)?.key;
    if (found !== undefined) this.keys.set(name, found);
    return found ?? -1;
  }
}
