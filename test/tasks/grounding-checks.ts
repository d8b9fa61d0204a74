// Shared assertions for the task note tests: a reference note must cover its key facts and be fully grounded, and a
// note with a fabricated value or an injected medication must fail `grounded` (no allowance for unsupported claims).
import type { Test } from 'tap';
import type { Resource } from '@medplum/fhirtypes';
import { covers, grounded, type KeyFact } from '../../graders/documentation/index.ts';

const STRICT = { maxUnsupported: 0 };

/** The chart of the note tests: patient `p1` and the given resources. */
export const chartOf = (...resources: Resource[]): Resource[] => [{ resourceType: 'Patient', id: 'p1' }, ...resources];

/** The reference note covers every key fact and is grounded; `summary` matches grounded's first evidence line. */
export function assertReferenceNote(t: Test, note: string, facts: KeyFact[], chart: Resource[], summary: RegExp): void {
  const c = covers(note, facts, chart);
  t.ok(c.pass, c.evidence.join('\n'));
  const g = grounded(note, chart, STRICT);
  t.ok(g.pass, g.evidence.join('\n'));
  t.match(g.evidence[0], summary);
}

/** `note` with `from` replaced by `to` differs from it and fails grounded as a contradicted claim; returns that note. */
export function assertFabricatedValueFails(t: Test, note: string, from: string, to: string, chart: Resource[]): { fabricated: string; evidence: string } {
  const fabricated = note.replace(from, to);
  t.not(fabricated, note, `the note contains "${from}"`);
  const g = grounded(fabricated, chart, STRICT);
  t.notOk(g.pass);
  t.equal(g.failure, 'contradicted_claim');
  return { fabricated, evidence: g.evidence.join('\n') };
}

/** A medication the chart never mentions (warfarin), appended to the note, is unsupported and fails grounded. */
export function assertInjectedWarfarinFails(t: Test, note: string, chart: Resource[]): void {
  const g = grounded(`${note}\nAlso taking warfarin 5 mg daily.`, chart, STRICT);
  t.notOk(g.pass);
  t.equal(g.failure, 'unsupported_claim');
  t.match(g.evidence.join('\n'), /unsupported: "warfarin 5 mg daily"/);
}
