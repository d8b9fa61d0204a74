// Terminology-backed token modifiers (FHIR R4 3.1.1.4.10: :in, :not-in, :below, :above, :text). The code set is
// computed in JS (resources/terminology, loaded on first use only) and tested per index row through SQL functions
// registered on each database, so a value set of any size costs no bound parameters.
import type Database from 'better-sqlite3';
import { ancestorsOf, descendantsOf, expandValueSetCodes, textMatches } from '../terminology/index.ts';

/** Recently planned code sets by id (a query binds the id; a few hundred sets is plenty for concurrent plans). */
const sets = new Map<number, { codes: Set<string>; bare: Set<string> }>();
let nextId = 1;
const MAX_SETS = 256;

const registered = new WeakSet<Database.Database>();

/** Make `search_in_codes(setId, system, code)` and `search_code_text(system, code, text)` callable on db. */
export function registerCodeSetFunctions(db: Database.Database): void {
  if (registered.has(db)) return;
  registered.add(db);
  // A row without a system comes from a `code` element, whose system the binding implies: match the code alone.
  db.function('search_in_codes', { deterministic: true }, (id: unknown, system: unknown, code: unknown) => {
    const set = sets.get(Number(id));
    if (!set || code === null) return 0;
    return (system === null ? set.bare.has(String(code)) : set.codes.has(`${system}|${code}`)) ? 1 : 0;
  });
  db.function('search_code_text', { deterministic: true }, (system: unknown, code: unknown, text: unknown) =>
    typeof system === 'string' && typeof code === 'string' && typeof text === 'string' && textMatches(system, code, text) ? 1 : 0);
}

export function rememberCodeSet(codes: Set<string>): number {
  const id = nextId++;
  sets.set(id, { codes, bare: new Set([...codes].map((c) => c.slice(c.indexOf('|') + 1))) });
  if (sets.size > MAX_SETS) sets.delete(sets.keys().next().value!);
  return id;
}

/** `system|code` entries a token modifier accepts; throws a FhirError (400) for a bad value or unknown value set. */
export function modifierCodes(modifier: 'in' | 'not-in' | 'below' | 'above', value: string, invalid: (message: string) => Error): Set<string> {
  if (modifier === 'in' || modifier === 'not-in') {
    try {
      return expandValueSetCodes(value);
    } catch (err) {
      // Re-issued so the OperationOutcome names the search parameter.
      const status = (err as { status?: number }).status;
      if (status !== undefined && status < 500) throw invalid((err as Error).message || `unknown value set '${value}'`);
      throw err;
    }
  }
  const bar = value.indexOf('|');
  const system = bar > 0 ? value.slice(0, bar) : '';
  const code = bar > 0 ? value.slice(bar + 1) : '';
  if (!system || !code) throw invalid(`:${modifier} takes system|code, not '${value}'`);
  const related = modifier === 'below' ? descendantsOf(system, code) : ancestorsOf(system, code);
  return new Set([`${system}|${code}`, ...[...related].map((c) => `${system}|${c}`)]);
}
