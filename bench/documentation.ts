// Documentation section of `npm run bench`: the claim verifier's confusion matrix and accuracy on the labelled
// validation set (graders/documentation/validation/), and the evidence ranker's recall@10 against the key facts each
// topic declares. Run alone with `npx tsx bench/documentation.ts`.
import { fileURLToPath } from 'node:url';
import { loadValidationSet, PREDICTIONS, scoreRetrieval, scoreVerifier } from '../graders/documentation/validation/evaluate.ts';
import { vocabulary } from '../resources/evidence/vocabulary.ts';
import { topicCatalog } from '../resources/evidence/topics.ts';
import { PatientChart } from '../resources/evidence/chart.ts';
import { noteDateOf, noteTextOf } from '../graders/documentation/note-text.ts';
import { verifyNoteText } from '../graders/documentation/verify.ts';
import type { DocumentReference } from '@medplum/fhirtypes';

/**
 * False alarms on notes someone else wrote: the generator's own visit notes (seed/chart.ts) state what the chart
 * holds, so every checkable claim in them should be supported.
 */
async function generatorNotes(patients: number): Promise<{ notes: number; claims: number; byVerdict: Record<string, number>; examples: string[] }> {
  // Loaded lazily: the section's main figures do not depend on the generator.
  const { generatePatient } = await import('../seed/generate.ts');
  const { NO_MESS } = await import('../seed/mess.ts');
  const { buildStaff } = await import('../seed/staff.ts');
  const staff = buildStaff(7);
  const vocab = vocabulary();
  const byVerdict: Record<string, number> = {};
  const examples: string[] = [];
  let notes = 0;
  let claims = 0;
  for (let i = 0; i < patients; i++) {
    const chart = new PatientChart(generatePatient(i, staff, { patients, seed: 7, mess: NO_MESS }).resources);
    for (const doc of chart.ofType<DocumentReference>('DocumentReference')) {
      notes++;
      for (const v of verifyNoteText(noteTextOf(doc), chart, vocab, { asOf: noteDateOf(doc) })) {
        claims++;
        byVerdict[v.verdict] = (byVerdict[v.verdict] ?? 0) + 1;
        if (v.verdict !== 'supported' && examples.length < 5) examples.push(`"${v.claim.text}" ${v.verdict}: ${v.reason}`);
      }
    }
  }
  return { notes, claims, byVerdict, examples };
}

export async function benchDocumentation(): Promise<string> {
  const set = loadValidationSet();
  vocabulary();
  topicCatalog();
  const started = performance.now();
  const v = scoreVerifier(set);
  const verifyMs = performance.now() - started;
  const r = scoreRetrieval(set);
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  const out: string[] = [];
  out.push('## Documentation: claim verification and evidence retrieval', '');
  out.push(`Validation set: ${set.notes.length} notes, ${v.total} labelled claims (one per line) written from seed-42 charts and a hand-built fixture chart, ` +
    'with injected errors; labels come from how each line was made. The verifier extracts claims from each whole note and the most severe verdict of a line\'s claims is its prediction.', '');
  out.push(`**Accuracy ${pct(v.accuracy)}** (${v.correct}/${v.total}; target >= 95%). **Contradicted claims called supported: ${v.contradictedCalledSupported}** (target 0). ` +
    `Verification time ${(verifyMs / v.total).toFixed(2)} ms per claim (extraction included).`, '');
  out.push(`| label \\ predicted | ${PREDICTIONS.join(' | ')} |`, `|---|${PREDICTIONS.map(() => '---').join('|')}|`);
  for (const [label, row] of Object.entries(v.matrix)) out.push(`| ${label} | ${PREDICTIONS.map((p) => row[p]).join(' | ')} |`);
  out.push('', '| how the line was made | claims | correct |', '|---|---|---|');
  for (const [made, s] of Object.entries(v.byMade).sort()) out.push(`| ${made} | ${s.total} | ${s.correct} |`);
  if (v.errors.length) {
    out.push('', 'Misjudged lines:', '');
    for (const e of v.errors.slice(0, 20)) out.push(`- ${e.note}: "${e.text}" labelled ${e.label}, predicted ${e.predicted} (${e.made}; ${e.reason || 'no claim extracted'})`);
  }
  out.push('', `Evidence ranker (\`Patient/[id]/$evidence\`): recall@10 of the key facts declared per topic (graders/documentation/validation/retrieval-key-facts.json) ` +
    `over ${r.pairs} (chart, topic) pairs holding at least two of the topic's facts, ${r.facts} facts. A fact is found when a resource stating it is among the first 10 entries.`, '');
  out.push(`**recall@10 by topic: ${pct(r.recallAt10)}; by the topic's question in plain words: ${pct(r.questionRecallAt10)}.**`, '');
  out.push('| topic | pairs | facts | found (topic) | found (question) |', '|---|---|---|---|---|');
  for (const [topic, s] of Object.entries(r.byTopic)) out.push(`| ${topic} | ${s.pairs} | ${s.facts} | ${s.found} | ${s.foundByQuestion} |`);
  if (r.misses.length) out.push('', `Missed: ${r.misses.slice(0, 10).join('; ')}`);
  try {
    const g = await generatorNotes(20);
    const supported = g.byVerdict.supported ?? 0;
    out.push('', `Faithful notes written by someone else: the generator's visit notes for 20 seed-7 patients (${g.notes} notes, ${g.claims} claims extracted): ` +
      `${Object.entries(g.byVerdict).map(([k, n]) => `${k} ${n}`).join(', ')} - **${pct(supported / Math.max(1, g.claims))} supported** (the rest are false alarms or the generator's own approximations).` +
      (g.examples.length ? ` Examples: ${g.examples.join('; ')}.` : ''));
  } catch (err) {
    out.push('', `_Generator notes not measured: the generator failed to load (${(err as Error).message.split('\n')[0]})._`);
  }
  out.push('', '_Caveat: the validation notes and the key-fact declarations were written by the author of the extractor and the topic groups; ' +
    'agent-written notes phrase things in ways this set does not cover, so expect lower figures on them._');
  return out.join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.log(await benchDocumentation());
}
