// The schema's regexes are Java regexes; javaWhitespace gives \s and \S their Java meaning (ASCII whitespace only).
import t from 'tap';
import { javaWhitespace } from '../../../resources/validation/schema.ts';

t.test('javaWhitespace: U+00A0 and other Unicode spaces are not \\s; ASCII whitespace is', (t) => {
  const table: [pattern: string, input: string, matches: boolean][] = [
    ['^[ \\r\\n\\t\\S]+$', 'Sean\u00a0Stover', true], // string/markdown: a no-break space is content
    ['^[ \\r\\n\\t\\S]+$', 'line\r\nbreak\ttab', true],
    ['^[ \\r\\n\\t\\S]+$', 'form\ffeed', false], // Java: \f is whitespace and not listed
    ['^[ \\r\\n\\t\\S]+$', '', false],
    ['^[^\\s]+(\\s[^\\s]+)*$', 'CHEST\u00a0', true], // code: a trailing no-break space is not whitespace in Java
    ['^[^\\s]+(\\s[^\\s]+)*$', 'a b', true],
    ['^[^\\s]+(\\s[^\\s]+)*$', 'a  b', false],
    ['^[^\\s]+(\\s[^\\s]+)*$', 'a ', false],
    ['^\\S*$', 'http://x/a\u2003b', true], // uri: an em space is not whitespace in Java
    ['^\\S*$', 'http://x/a b', false],
    ['^(\\s*([0-9a-zA-Z\\+/=]){4}\\s*)+$', 'QUJD\nREVG', true],
    ['^[A-Za-z0-9\\-\\.]{1,64}$', 'a-b.c', true], // no \s: unchanged
  ];
  for (const [pattern, input, matches] of table) {
    t.equal(new RegExp(javaWhitespace(pattern), 'u').test(input), matches, `${pattern} ${JSON.stringify(input)}`);
  }
  t.equal(javaWhitespace('^[A-Za-z0-9\\-\\.]{1,64}$'), '^[A-Za-z0-9\\-\\.]{1,64}$');
  t.end();
});
