// The search index tables: one per parameter type, every row keyed by (sandbox, type, id, param), plus an FTS5
// table for `_text`/`_content`. Owned by the search engine; the store runs this DDL when it opens.
export const INDEX_TABLES = ['search_string', 'search_token', 'search_date', 'search_reference', 'search_quantity', 'search_number', 'search_uri', 'search_composite'] as const;

export const INDEX_SCHEMA = `
CREATE TABLE IF NOT EXISTS search_string (sandbox TEXT NOT NULL, type TEXT NOT NULL, id TEXT NOT NULL, param TEXT NOT NULL, value TEXT NOT NULL, exact TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS search_string_value ON search_string (sandbox, type, param, value);
CREATE INDEX IF NOT EXISTS search_string_owner ON search_string (sandbox, type, id);

CREATE TABLE IF NOT EXISTS search_token (sandbox TEXT NOT NULL, type TEXT NOT NULL, id TEXT NOT NULL, param TEXT NOT NULL, system TEXT, code TEXT, text TEXT, of_type TEXT);
CREATE INDEX IF NOT EXISTS search_token_code ON search_token (sandbox, type, param, code, system);
CREATE INDEX IF NOT EXISTS search_token_owner ON search_token (sandbox, type, id);

CREATE TABLE IF NOT EXISTS search_date (sandbox TEXT NOT NULL, type TEXT NOT NULL, id TEXT NOT NULL, param TEXT NOT NULL, start INTEGER NOT NULL, end INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS search_date_start ON search_date (sandbox, type, param, start);
CREATE INDEX IF NOT EXISTS search_date_owner ON search_date (sandbox, type, id);

CREATE TABLE IF NOT EXISTS search_reference (sandbox TEXT NOT NULL, type TEXT NOT NULL, id TEXT NOT NULL, param TEXT NOT NULL, target_type TEXT, target_id TEXT, url TEXT);
CREATE INDEX IF NOT EXISTS search_reference_target ON search_reference (sandbox, type, param, target_id);
CREATE INDEX IF NOT EXISTS search_reference_reverse ON search_reference (sandbox, target_type, target_id);
CREATE INDEX IF NOT EXISTS search_reference_owner ON search_reference (sandbox, type, id);

CREATE TABLE IF NOT EXISTS search_quantity (sandbox TEXT NOT NULL, type TEXT NOT NULL, id TEXT NOT NULL, param TEXT NOT NULL, value REAL NOT NULL, system TEXT, code TEXT, unit TEXT);
CREATE INDEX IF NOT EXISTS search_quantity_value ON search_quantity (sandbox, type, param, value);
CREATE INDEX IF NOT EXISTS search_quantity_owner ON search_quantity (sandbox, type, id);

CREATE TABLE IF NOT EXISTS search_number (sandbox TEXT NOT NULL, type TEXT NOT NULL, id TEXT NOT NULL, param TEXT NOT NULL, value REAL NOT NULL);
CREATE INDEX IF NOT EXISTS search_number_value ON search_number (sandbox, type, param, value);
CREATE INDEX IF NOT EXISTS search_number_owner ON search_number (sandbox, type, id);

CREATE TABLE IF NOT EXISTS search_uri (sandbox TEXT NOT NULL, type TEXT NOT NULL, id TEXT NOT NULL, param TEXT NOT NULL, value TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS search_uri_value ON search_uri (sandbox, type, param, value);
CREATE INDEX IF NOT EXISTS search_uri_owner ON search_uri (sandbox, type, id);

-- Composite parameters (token + one other component), one row per composite item.
CREATE TABLE IF NOT EXISTS search_composite (sandbox TEXT NOT NULL, type TEXT NOT NULL, id TEXT NOT NULL, param TEXT NOT NULL,
  system1 TEXT, code1 TEXT, system2 TEXT, code2 TEXT, number2 REAL, start2 INTEGER, end2 INTEGER, text2 TEXT);
CREATE INDEX IF NOT EXISTS search_composite_code ON search_composite (sandbox, type, param, code1);
CREATE INDEX IF NOT EXISTS search_composite_owner ON search_composite (sandbox, type, id);

CREATE TABLE IF NOT EXISTS search_text_owner (rowid INTEGER PRIMARY KEY, sandbox TEXT NOT NULL, type TEXT NOT NULL, id TEXT NOT NULL);
CREATE UNIQUE INDEX IF NOT EXISTS search_text_owner_key ON search_text_owner (sandbox, type, id);
CREATE VIRTUAL TABLE IF NOT EXISTS search_text USING fts5 (narrative, content, tokenize = 'unicode61 remove_diacritics 2');
`;
