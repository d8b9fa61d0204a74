// Serializes view rows as the $run output formats (SQL on FHIR v2 "$run" `_format`): a JSON array, NDJSON (one
// object per line) or CSV (RFC 4180, header row first). Chunked generators, so a caller can stream them.
import type { ColumnInfo, Row } from './compile-view.ts';

export type RowFormat = 'json' | 'ndjson' | 'csv';

export const CONTENT_TYPES: Record<RowFormat, string> = {
  json: 'application/json; charset=utf-8',
  ndjson: 'application/x-ndjson; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
};

/** `json`, `ndjson` and `csv`, or their media types; undefined when the value names none of them. */
export function parseRowFormat(value: string | undefined): RowFormat | undefined {
  if (value === undefined || value === '') return 'json';
  const v = value.toLowerCase().split(';')[0].trim();
  if (v === 'json' || v === 'application/json' || v === 'application/fhir+json') return 'json';
  if (v === 'ndjson' || v === 'application/x-ndjson' || v === 'application/ndjson' || v === 'application/fhir+ndjson') return 'ndjson';
  if (v === 'csv' || v === 'text/csv') return 'csv';
  return undefined;
}

export function* formatRows(rows: Iterable<Row>, columns: ColumnInfo[], format: RowFormat): Generator<string> {
  if (format === 'csv') {
    yield columns.map((c) => csvField(c.name)).join(',') + '\r\n';
    for (const row of rows) yield columns.map((c) => csvField(row[c.name])).join(',') + '\r\n';
    return;
  }
  if (format === 'ndjson') {
    for (const row of rows) yield JSON.stringify(row) + '\n';
    return;
  }
  yield '[';
  let first = true;
  for (const row of rows) {
    yield (first ? '' : ',') + JSON.stringify(row);
    first = false;
  }
  yield ']';
}

/** Null is an empty field; collections and complex values are written as JSON text. */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
