// Scores the verifier on the validation set (confusion matrix, accuracy, the critical error: a contradicted claim
// called supported) and the evidence ranker's recall@10 against the key facts each topic declares.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Condition, MedicationRequest, Observation, Resource } from '@medplum/fhirtypes';
import { PatientChart, isVoid, refOf, timeMillis } from '../../../resources/evidence/chart.ts';
import { rankEvidence } from '../../../resources/evidence/rank.ts';
import { topicCatalog } from '../../../resources/evidence/topics.ts';
import { RXNORM, SNOMED, vocabulary } from '../../../resources/evidence/vocabulary.ts';
import { extractClaims } from '../claims.ts';
import { verifyClaims, type ClaimVerdict } from '../verify.ts';
import type { Label, ValidationNote } from './build.ts';

const here = dirname(fileURLToPath(import.meta.url));
export const PREDICTIONS = ['supported', 'contradicted', 'unsupported', 'unverifiable', 'no claim'] as const;
export type Prediction = (typeof PREDICTIONS)[number];

export interface VerifierScore {
  total: number;
  correct: number;
  accuracy: number;
  /** matrix[label][prediction] */
  matrix: Record<Label, Record<Prediction, number>>;
  contradictedCalledSupported: number;
  errors: { note: string; text: string; label: Label; predicted: Prediction; made: string; reason: string }[];
  byMade: Record<string, { total: number; correct: number }>;
}

export function loadValidationSet(): { charts: Record<string, Resource[]>; notes: ValidationNote[] } {
  const charts = (JSON.parse(readFileSync(join(here, 'charts.json'), 'utf8')) as { charts: Record<string, Resource[]> }).charts;
  const notes = (JSON.parse(readFileSync(join(here, 'claims.json'), 'utf8')) as { notes: ValidationNote[] }).notes;
  return { charts, notes };
}

/** The most severe verdict of a line's claims decides the line (one wrong claim makes the line wrong). */
const SEVERITY: ClaimVerdict[] = ['contradicted', 'unsupported', 'supported', 'unverifiable'];

export function scoreVerifier(set = loadValidationSet()): VerifierScore {
  const vocab = vocabulary();
  const matrix = Object.fromEntries((['supported', 'contradicted', 'unsupported'] as Label[]).map((l) => [l, Object.fromEntries(PREDICTIONS.map((p) => [p, 0]))])) as VerifierScore['matrix'];
  const errors: VerifierScore['errors'] = [];
  const byMade: VerifierScore['byMade'] = {};
  let total = 0;
  let correct = 0;
  for (const note of set.notes) {
    const chart = new PatientChart(set.charts[note.patient]);
    const text = note.lines.map((l) => l.text).join('\n');
    const verifications = verifyClaims(extractClaims(text, vocab).claims, chart, vocab, { asOf: note.asOf });
    let offset = 0;
    for (const line of note.lines) {
      const start = offset;
      const end = offset + line.text.length;
      offset = end + 1;
      const mine = verifications.filter((v) => v.claim.span.start >= start && v.claim.span.end <= end);
      const predicted: Prediction = mine.length ? SEVERITY.find((s) => mine.some((v) => v.verdict === s))! : 'no claim';
      matrix[line.label][predicted]++;
      total++;
      const ok = predicted === line.label;
      if (ok) correct++;
      else errors.push({ note: note.id, text: line.text, label: line.label, predicted, made: line.made, reason: mine.map((v) => v.reason).join('; ') });
      byMade[line.made] ??= { total: 0, correct: 0 };
      byMade[line.made].total++;
      if (ok) byMade[line.made].correct++;
    }
  }
  return { total, correct, accuracy: total ? correct / total : 0, matrix, contradictedCalledSupported: matrix.contradicted.supported, errors, byMade };
}

interface TopicFacts {
  question: string;
  latestResults: string[];
  activeProblemsBelow: string[];
  activeIngredients: string[];
}

export interface RetrievalScore {
  /** Mean over (patient, topic) pairs of the share of key facts in the first 10. */
  recallAt10: number;
  questionRecallAt10: number;
  pairs: number;
  facts: number;
  byTopic: Record<string, { pairs: number; facts: number; found: number; foundByQuestion: number }>;
  misses: string[];
}

/**
 * The key facts a topic declares, found in one chart: each fact is the resources that state it (any one suffices):
 * the latest result of a test, the active problems below a concept, the active orders of an ingredient.
 */
export function keyFactsFor(chart: PatientChart, facts: TopicFacts, asOf: number): { fact: string; refs: string[] }[] {
  const vocab = vocabulary();
  const out: { fact: string; refs: string[] }[] = [];
  for (const loinc of facts.latestResults) {
    const latest = chart.ofType<Observation>('Observation')
      .filter((o) => !isVoid(o) && o.valueQuantity?.value !== undefined && timeMillis(o) <= asOf && vocab.expandCodings(o.code?.coding).has(`http://loinc.org|${loinc}`))
      .sort((a, b) => timeMillis(b) - timeMillis(a))[0];
    if (latest) out.push({ fact: `latest ${loinc}`, refs: [refOf(latest)] });
  }
  for (const code of facts.activeProblemsBelow) {
    const refs = chart.ofType<Condition>('Condition')
      .filter((c) => !isVoid(c) && (c.clinicalStatus?.coding?.[0]?.code ?? 'active') === 'active' && vocab.expandCodings(c.code?.coding).has(`${SNOMED}|${code}`))
      .map(refOf);
    if (refs.length) out.push({ fact: `problem below ${code}`, refs });
  }
  for (const ing of facts.activeIngredients) {
    const refs = chart.ofType<MedicationRequest>('MedicationRequest')
      .filter((m) => m.status === 'active' && vocab.expandCodings(m.medicationCodeableConcept?.coding).has(`${RXNORM}|${ing}`))
      .map(refOf);
    if (refs.length) out.push({ fact: `active ${ing}`, refs });
  }
  return out;
}

export function scoreRetrieval(set = loadValidationSet()): RetrievalScore {
  const declared = (JSON.parse(readFileSync(join(here, 'retrieval-key-facts.json'), 'utf8')) as { topics: Record<string, TopicFacts> }).topics;
  const catalog = topicCatalog();
  const vocab = vocabulary();
  const byTopic: RetrievalScore['byTopic'] = {};
  const misses: string[] = [];
  const recalls: number[] = [];
  const questionRecalls: number[] = [];
  let facts = 0;
  for (const note of set.notes) {
    const chart = new PatientChart(set.charts[note.patient]);
    const asOf = Date.parse(note.asOf);
    for (const [topic, spec] of Object.entries(declared)) {
      const keys = keyFactsFor(chart, spec, asOf);
      if (keys.length < 2) continue;
      const top = rankEvidence(chart, { topics: [topic], asOf: note.asOf }, catalog, vocab).items.slice(0, 10).map((i) => refOf(i.resource));
      const topQ = rankEvidence(chart, { question: spec.question, asOf: note.asOf }, catalog, vocab).items.slice(0, 10).map((i) => refOf(i.resource));
      const found = keys.filter((k) => k.refs.some((ref) => top.includes(ref)));
      const foundQ = keys.filter((k) => k.refs.some((ref) => topQ.includes(ref)));
      for (const k of keys) if (!found.includes(k)) misses.push(`${note.patient} ${topic}: ${k.fact} (${k.refs.join(', ')})`);
      recalls.push(found.length / keys.length);
      questionRecalls.push(foundQ.length / keys.length);
      facts += keys.length;
      byTopic[topic] ??= { pairs: 0, facts: 0, found: 0, foundByQuestion: 0 };
      byTopic[topic].pairs++;
      byTopic[topic].facts += keys.length;
      byTopic[topic].found += found.length;
      byTopic[topic].foundByQuestion += foundQ.length;
    }
  }
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
  return { recallAt10: mean(recalls), questionRecallAt10: mean(questionRecalls), pairs: recalls.length, facts, byTopic, misses };
}
