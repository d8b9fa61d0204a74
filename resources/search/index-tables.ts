// The search index tables: one per parameter type plus an FTS5 table for `_text`/`_content`. Owned by the search
// engine; the store runs this DDL when it opens (and the indexer's `open` migrates older layouts).
//
// Every row is keyed by `rid`, the resource's `resource_current.rowid` (stable: resource_current is only upserted,
// never VACUUMed; its rows leave only through Store.clearSandbox, which clears the index rows first), and by
// `param`, an integer key for one (resource type, parameter code) pair from `search_param`. Small integer keys keep
// each insert cheap. Tables are WITHOUT ROWID with primary key (rid, param, seq): the primary key doubles as the
// "rows of one resource" index (re-indexing, EXISTS probes, sort keys, _include), so each row costs two b-tree
// inserts: the table and one value index led by (sandbox, param).
export const INDEX_TABLES = ['search_string', 'search_token', 'search_date', 'search_reference', 'search_quantity', 'search_number', 'search_uri', 'search_composite'] as const;

/** Bumped whenever the layout changes: a store holding another version is re-indexed when it opens. */
export const INDEX_VERSION = '2';

const KEY = 'rid INTEGER NOT NULL, param INTEGER NOT NULL, seq INTEGER NOT NULL, sandbox TEXT NOT NULL';
const PK = 'PRIMARY KEY (rid, param, seq)) WITHOUT ROWID';

export const INDEX_SCHEMA = `
CREATE TABLE IF NOT EXISTS search_param (key INTEGER PRIMARY KEY, type TEXT NOT NULL, code TEXT NOT NULL, UNIQUE (type, code));

CREATE TABLE IF NOT EXISTS search_string (${KEY}, value TEXT NOT NULL, exact TEXT NOT NULL, ${PK};
CREATE INDEX IF NOT EXISTS search_string_value ON search_string (sandbox, param, value);

CREATE TABLE IF NOT EXISTS search_token (${KEY}, system TEXT, code TEXT, text TEXT, of_type TEXT, ${PK};
CREATE INDEX IF NOT EXISTS search_token_code ON search_token (sandbox, param, code, system);

CREATE TABLE IF NOT EXISTS search_date (${KEY}, start INTEGER NOT NULL, end INTEGER NOT NULL, ${PK};
CREATE INDEX IF NOT EXISTS search_date_start ON search_date (sandbox, param, start);

CREATE TABLE IF NOT EXISTS search_reference (${KEY}, target_type TEXT, target_id TEXT, url TEXT, ${PK};
CREATE INDEX IF NOT EXISTS search_reference_target ON search_reference (sandbox, param, target_id);

CREATE TABLE IF NOT EXISTS search_quantity (${KEY}, value REAL NOT NULL, system TEXT, code TEXT, unit TEXT, ${PK};
CREATE INDEX IF NOT EXISTS search_quantity_value ON search_quantity (sandbox, param, value);

CREATE TABLE IF NOT EXISTS search_number (${KEY}, value REAL NOT NULL, ${PK};
CREATE INDEX IF NOT EXISTS search_number_value ON search_number (sandbox, param, value);

CREATE TABLE IF NOT EXISTS search_uri (${KEY}, value TEXT NOT NULL, ${PK};
CREATE INDEX IF NOT EXISTS search_uri_value ON search_uri (sandbox, param, value);

-- Composite parameters (token + one other component), one row per composite item.
CREATE TABLE IF NOT EXISTS search_composite (${KEY},
  system1 TEXT, code1 TEXT, system2 TEXT, code2 TEXT, number2 REAL, start2 INTEGER, end2 INTEGER, text2 TEXT, ${PK};
CREATE INDEX IF NOT EXISTS search_composite_code ON search_composite (sandbox, param, code1);

-- Full text: FTS rowid = rid. Contentless (the text is only matched, never read back).
CREATE VIRTUAL TABLE IF NOT EXISTS search_text USING fts5 (narrative, content, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2');
`;

/** Tables of earlier layouts, dropped by the migration. */
export const OLD_TABLES = [...INDEX_TABLES, 'search_text', 'search_text_owner', 'search_param'];
