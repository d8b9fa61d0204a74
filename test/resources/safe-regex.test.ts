// Client regexes (resources/safe-regex.ts): RE2 semantics, length and cost bounds, 400 OperationOutcomes.
import t from 'tap';
import { compileClientRegex, MAX_REGEX_LENGTH, MAX_REGEX_SUBJECT } from '../../resources/safe-regex.ts';
import { FhirError } from '../../resources/outcome.ts';

t.test('matching', async (t) => {
  const cases: [pattern: string, flags: string, subject: string, all: boolean, part: boolean][] = [
    ['2823-[0-9]', '', '2823-3', true, true],
    ['2823', '', '2823-3', false, true],
    ['potassium', 'i', 'Serum POTASSIUM', false, true],
    ['a.b', '', 'a\nb', true, true], // `.` matches a newline (FHIRPath single-line mode)
    ['^b$', 'm', 'a\nb', false, true],
    ['(.|.)*#', '', 'x'.repeat(MAX_REGEX_SUBJECT), false, false], // exponential on a backtracking engine
  ];
  for (const [pattern, flags, subject, all, part] of cases) {
    const re = compileClientRegex(pattern, 'test', flags);
    t.equal(re.matchesAll(subject), all, `${pattern} /${flags} whole`);
    t.equal(re.matchesPart(subject), part, `${pattern} /${flags} part`);
  }
  t.equal(compileClientRegex('(C)(h)', 'test').replaceAll('Chalmers', '$2$1'), 'hCalmers');
  t.notOk(compileClientRegex('x+', 'test').matchesAll('x'.repeat(MAX_REGEX_SUBJECT + 1)), 'a subject over the limit never matches');
});

t.test('refused patterns are 400 invalid, naming where', async (t) => {
  for (const pattern of ['(a)\\1', '(?=a)a', '(?<!a)b', '[', 'a'.repeat(MAX_REGEX_LENGTH + 1), '.{0,1000}.{0,1000}x']) {
    const err = (() => { try { compileClientRegex(pattern, 'ValueSet filter'); } catch (e) { return e; } })();
    t.ok(err instanceof FhirError, pattern.slice(0, 20));
    t.equal((err as FhirError).status, 400);
    t.equal((err as FhirError).outcome.issue?.[0].code, 'invalid');
    t.match((err as FhirError).outcome.issue?.[0].diagnostics, /^ValueSet filter: the regular expression/);
  }
});
