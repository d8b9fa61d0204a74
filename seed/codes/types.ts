// The shape of a checked-in code table: data only, keyed by code system URL, so the terminology service can serve
// the same tables the generator draws from.
export interface CodeTable {
  /** Canonical code system URL, as it appears in Coding.system. */
  system: string;
  title: string;
  /** code -> official display text. */
  concepts: Record<string, string>;
}

export interface Coding {
  system: string;
  code: string;
  display: string;
}

/** A Coding for a code that must exist in the table (throws at generation time otherwise: no invented codes). */
export function codingOf(table: CodeTable, code: string): Coding {
  const display = table.concepts[code];
  if (display === undefined) throw new Error(`code ${code} is not in the ${table.title} table`);
  return { system: table.system, code, display };
}
