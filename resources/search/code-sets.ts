// Terminology-backed token modifiers (FHIR R4 3.1.1.4.10: :in, :not-in, :below, :above, :text). The code set (or
// text test) is computed in JS by the terminology service the engine was given, and applied per index row through
// one SQL function registered on each database, so a value set of any size costs no bound parameters.
import type Database from 'better-sqlite3';
import type { TerminologyService } from '../terminology/service.ts';

/** Whether an index row's `system|code` passes; `system` is null for a row from a bare `code` element. */
type CodeTest = (system: string | null, code: string) => boolean;

/**
 * Recently planned tests by id (a query binds the id; a few hundred is plenty for concurrent plans). Process-wide
 * because the SQL function is registered once per connection and one connection serves every engine (and so every
 * terminology service) that uses the store: each test carries its own service, and the id alone finds it.
 */
const tests = new Map<number, CodeTest>();
let nextId = 1;
const MAX_TESTS = 256;

const registered = new WeakSet<Database.Database>();

/** Make `search_in_codes(testId, system, code)` callable on db. */
export function registerCodeSetFunctions(db: Database.Database): void {
  if (registered.has(db)) return;
  registered.add(db);
  db.function('search_in_codes', { deterministic: true }, (id: unknown, system: unknown, code: unknown) => {
    const test = tests.get(Number(id));
    if (!test || typeof code !== 'string') return 0;
    return test(typeof system === 'string' ? system : null, code) ? 1 : 0;
  });
}

function remember(test: CodeTest): number {
  const id = nextId++;
  tests.set(id, test);
  if (tests.size > MAX_TESTS) tests.delete(tests.keys().next().value!);
  return id;
}

/** The id of a test for membership in `codes` (`system|code` entries). */
export function rememberCodeSet(codes: Set<string>): number {
  const bare = new Set([...codes].map((c) => c.slice(c.indexOf('|') + 1)));
  // A row without a system comes from a `code` element, whose system the binding implies: match the code alone.
  return remember((system, code) => (system === null ? bare.has(code) : codes.has(`${system}|${code}`)));
}

/** The id of a `:text` test: the row's code has a display or synonym in `terminology` that matches `text`. */
export function rememberCodeText(terminology: TerminologyService, text: string): number {
  return remember((system, code) => system !== null && terminology.textMatches(system, code, text));
}

/** `system|code` entries a token modifier accepts; throws a FhirError (400) for a bad value or unknown value set. */
export function modifierCodes(terminology: TerminologyService, modifier: 'in' | 'not-in' | 'below' | 'above', value: string, invalid: (message: string) => Error): Set<string> {
  if (modifier === 'in' || modifier === 'not-in') {
    try {
      return terminology.valueSetCodes(value);
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
  const related = modifier === 'below' ? terminology.descendantsOf(system, code) : terminology.ancestorsOf(system, code);
  return new Set([`${system}|${code}`, ...[...related].map((c) => `${system}|${c}`)]);
}
