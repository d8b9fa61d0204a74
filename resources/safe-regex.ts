// Regular expressions written by clients (ValueSet `regex` filters, FHIRPath matches() in views) run on RE2 semantics
// (re2js, a pure-JS port): matching time is linear in the subject, so no pattern can backtrack without limit the way
// JavaScript's RegExp does on `(.|.)*#`. RE2 has no backreferences or lookaround; such a pattern is refused.
import { RE2JS } from 're2js';
import { FhirError, issue } from './outcome.ts';

/** Longest pattern accepted, in characters. */
export const MAX_REGEX_LENGTH = 500;
/** Largest compiled program accepted (RE2's approximate cost: `.{0,1000}` alone is ~2000). */
export const MAX_REGEX_PROGRAM = 2000;
/** Longest subject a pattern is tested against; a longer value does not match (never tested, never slow). */
export const MAX_REGEX_SUBJECT = 1000;

export interface SafeRegex {
  /** The whole subject matches (FHIR's `regex` filter, FHIRPath matchesFull()). */
  matchesAll(subject: string): boolean;
  /** Some part of the subject matches (FHIRPath matches()). */
  matchesPart(subject: string): boolean;
  /** Every match replaced, `$1` naming a group (FHIRPath replaceMatches()); a subject too long is left as it is. */
  replaceAll(subject: string, replacement: string): string;
}

/**
 * Compiles a client's pattern, or throws a 400 OperationOutcome naming `where` (too long, too costly, not valid RE2).
 * `flags`: FHIRPath's `i` (case-insensitive) and `m` (multi-line); `.` matches a newline, as FHIRPath specifies.
 */
export function compileClientRegex(pattern: string, where: string, flags = ''): SafeRegex {
  const refuse = (why: string) => new FhirError(400, [issue('error', 'invalid', `${where}: the regular expression ${why}`)]);
  if (pattern.length > MAX_REGEX_LENGTH) throw refuse(`has ${pattern.length} characters; at most ${MAX_REGEX_LENGTH} are accepted`);
  let re: RE2JS;
  try {
    re = RE2JS.compile(pattern, RE2JS.DOTALL | (flags.includes('i') ? RE2JS.CASE_INSENSITIVE : 0) | (flags.includes('m') ? RE2JS.MULTILINE : 0));
  } catch (err) {
    throw refuse(`'${pattern}' is not valid (RE2 syntax: no backreferences or lookaround): ${(err as Error).message}`);
  }
  if (re.programSize() > MAX_REGEX_PROGRAM) throw refuse(`is too costly (program size ${re.programSize()}; at most ${MAX_REGEX_PROGRAM})`);
  return {
    matchesAll: (subject) => subject.length <= MAX_REGEX_SUBJECT && re.testExact(subject),
    matchesPart: (subject) => subject.length <= MAX_REGEX_SUBJECT && re.test(subject),
    replaceAll: (subject, replacement) => (subject.length <= MAX_REGEX_SUBJECT ? re.matcher(subject).replaceAll(replacement) : subject),
  };
}
