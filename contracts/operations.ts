// Named operations whose identity matters on both sides of the HTTP line: the server (which answers them in rows,
// so `_format` is theirs) and the graders reading the audit log (which count them as population queries).

/** The SQL on FHIR operations that answer rows (json, ndjson, csv) rather than a FHIR resource. */
export const TABULAR_OPERATIONS: readonly string[] = ['run', 'viewdefinition-run', 'sqlquery-run'];

/** Whether a request path (below or including the FHIR base; `$` raw or percent-encoded) invokes a tabular operation. */
export function isTabularOperationPath(path: string): boolean {
  const last = path.replace(/\/+$/, '').split('/').pop() ?? '';
  const name = last.startsWith('$') ? last.slice(1) : last.toLowerCase().startsWith('%24') ? last.slice(3) : undefined;
  return name !== undefined && TABULAR_OPERATIONS.includes(name.toLowerCase());
}
