// Which way a text points about a drug or an action: does the writer recommend, order or continue it, or decline,
// avoid, hold or stop it? Read clause by clause around each mention of the subject, with negation scope ("I would
// not prescribe ibuprofen" is against, "ibuprofen is not contraindicated" is for), chains of verbs multiplied
// ("I would not recommend stopping lisinopril" is for lisinopril), the thing set aside ("rather than ibuprofen, use
// acetaminophen"), the asker's words left out ("Question: start testosterone?"), and contingency plans ("if K rises
// above 5.5, hold it") counted as weak. Keywords alone never decide: "not ordered by me - ibuprofen is reasonable, go
// ahead" recommends ibuprofen.
import { sentencesOf, type Segment, type Sentence } from './clauses.ts';
import {
  AFTER_BARE_VERB, ANSWER_WORD, CONTINGENCY, COORDINATOR, DOSING_PHRASES, FUNCTION_WORDS, LINKING_WORDS, MARKER, MARKER_NEEDS, MODAL, NAME_EXTENSIONS, NEGATIVE_ANSWER_WORDS,
  NEGATOR, PREDICATES, REPORTED, type CueClass,
} from './direction-cues.ts';

export type Direction = 'recommend' | 'against' | 'unclear' | 'absent';

export interface DirectionStatement {
  /** The clause that states it, as written. */
  text: string;
  start: number;
  end: number;
  direction: 'recommend' | 'against';
  /** Weak: a contingency plan, a stated risk, or a report that something was not done ("not ordered"). A strong
   * statement outweighs weak ones; two strong statements in opposite directions make the text unclear. */
  strong: boolean;
  /** The words that decided it. */
  why: string;
}

export interface DirectionReading {
  direction: Direction;
  /** The subject is named somewhere in the text (even only in the quoted request). */
  mentioned: boolean;
  statements: DirectionStatement[];
}

export interface DirectionOptions {
  /** Mentions inside these phrases are not the subject (subject "NSAID", except "topical NSAID"). */
  except?: string[];
  /** The text answers a question about the subject ("should I prescribe ibuprofen?"): clauses that name nothing
   * ("No - not safe here", "Declined.") are about the subject, and a leading yes/no answers it. */
  answersQuestion?: boolean;
}

interface Span {
  start: number;
  end: number;
}

interface Cue extends Span {
  type: 'predicate' | 'negator' | 'marker' | 'reported' | 'modal';
  polarity: 1 | -1;
  cls?: CueClass;
  text: string;
}

interface Reading {
  polarity: 1 | -1;
  strong: boolean;
  why: string[];
}

/** The direction the text takes about the subject (its names, e.g. ['ibuprofen', 'NSAID']). */
export function directionAbout(text: string, subject: string[], options: DirectionOptions = {}): Direction {
  return readDirection(text, subject, options).direction;
}

/** The direction with the statements that decided it, for evidence. */
export function readDirection(text: string, subject: string[], options: DirectionOptions = {}): DirectionReading {
  const except = options.except ?? [];
  const mentions = mentionsIn(text, subject, except);
  const sentences = sentencesOf(text, (label) => mentionsIn(label, subject, except).length > 0);
  const statements: DirectionStatement[] = [];
  const named = new Set<number>();

  sentences.forEach((sentence, i) => {
    const own = mentions.filter((m) => m.start >= sentence.start && m.end <= sentence.end && sentence.masked[m.start - sentence.start] !== ' ');
    if (own.length) named.add(i);
    if (sentence.reported || sentence.question) return;
    for (const m of own) {
      const r = readMention(sentence, m, own, viewOf(text, sentence), false);
      if (r) statements.push(statement(text, sentence, segmentOf(sentence, m)!, r));
    }
  });

  // "It", "this drug", "the request" after a sentence that named the subject (or anywhere, when the text answers a
  // question about it), only where a verb takes it as its object or it is judged ("it is contraindicated").
  sentences.forEach((sentence, i) => {
    if (sentence.reported || sentence.question) return;
    if (!(named.has(i) || named.has(i - 1) || options.answersQuestion)) return;
    for (const m of sentence.masked.matchAll(PRONOUN)) {
      const span = { start: sentence.start + m.index!, end: sentence.start + m.index! + m[0].length };
      if (mentions.some((x) => x.start < span.end && x.end > span.start)) continue;
      const r = readMention(sentence, span, [span], viewOf(text, sentence), true);
      if (r) statements.push(statement(text, sentence, segmentOf(sentence, span)!, r));
    }
  });

  if (options.answersQuestion) {
    const first = sentences.find((s) => !s.reported);
    const opening = first?.segments[0];
    const word = opening && ANSWER_WORD.exec(text.slice(opening.start, opening.end));
    if (first && opening && word && text.slice(opening.start, opening.end).trim().length <= word[0].trim().length + 1) {
      statements.push({
        text: text.slice(opening.start, opening.end).trim(), start: opening.start, end: opening.end,
        direction: NEGATIVE_ANSWER_WORDS.has(word[1].toLowerCase()) ? 'against' : 'recommend', strong: true, why: `answers "${word[1]}"`,
      });
    }
  }

  // Clauses that name nothing ("Declined given CKD", "Not safe here", "I would not."): about the subject when the
  // text answers a question about it and never names it, or right where it was named without a verdict.
  if (!statements.some((s) => s.why !== '' && !s.why.startsWith('answers'))) {
    const around = options.answersQuestion && named.size === 0
      ? sentences.map((_, i) => i)
      : [...named].flatMap((i) => [i, i + 1]);
    for (const i of new Set(around)) {
      const sentence = sentences[i];
      if (!sentence || sentence.reported || sentence.question) continue;
      for (const segment of sentence.segments) {
        if (mentions.some((m) => m.start >= segment.start && m.end <= segment.end)) continue;
        if (i === 0 && options.answersQuestion && segment === sentence.segments[0] && ANSWER_WORD.test(text.slice(segment.start, segment.end))
          && wordsOf(text.slice(segment.start, segment.end)).length <= 1) continue;
        const r = readBare(sentence, segment, viewOf(text, sentence));
        if (r) statements.push(statement(text, sentence, segment, r));
      }
    }
  }

  const strong = statements.filter((s) => s.strong);
  const weighed = strong.length ? strong : statements;
  const directions = new Set(weighed.map((s) => s.direction));
  const direction: Direction = directions.size === 2 ? 'unclear' : directions.size === 1 ? [...directions][0] : mentions.length ? 'unclear' : 'absent';
  return { direction, mentioned: mentions.length > 0, statements: statements.sort((a, b) => a.start - b.start) };
}

const PRONOUN = /(?<![\p{L}\d])(?:it|them|(?:this|that|the|these|your) (?:drug|medication|medicine|agent|one|request|order|prescription)s?|request)(?![\p{L}\d])/giu;

/** Where the subject is named, as whole words (a plural -s/-es allowed), outside the `except` phrases. */
export function mentionsIn(text: string, subject: string[], except: string[] = []): Span[] {
  const find = (terms: string[]) => terms.filter((t) => t.trim()).flatMap((t) =>
    [...text.matchAll(new RegExp(`(?<![\\p{L}\\d])${escapeRegExp(t.trim())}(?:e?s)?(?![\\p{L}\\d])`, 'giu'))].map((m) => ({ start: m.index!, end: m.index! + m[0].length })));
  const excluded = find(except);
  const out: Span[] = [];
  for (const m of find(subject).sort((a, b) => a.start - b.start || b.end - a.end)) {
    if (excluded.some((x) => x.start <= m.start && x.end >= m.end)) continue;
    if (out.some((o) => o.start < m.end && o.end > m.start)) continue;
    out.push(m);
  }
  return out;
}

/** The text as one sentence sees it: its parentheses blanked (they are read as sentences of their own), so
 * "not recommended (contraindicated with prostate cancer)" ends after "recommended". Offsets are unchanged. */
function viewOf(text: string, sentence: Sentence): string {
  return text.slice(0, sentence.start) + sentence.masked + text.slice(sentence.end);
}

function segmentOf(sentence: Sentence, span: Span): Segment | undefined {
  return sentence.segments.find((g) => span.start >= g.start && span.start < g.end);
}

/** Every cue in a segment, mentions and dosing words ("as needed") left out. */
function cuesIn(sentence: Sentence, segment: Segment, mentions: Span[]): Cue[] {
  let masked = sentence.masked.slice(segment.start - sentence.start, segment.end - sentence.start);
  for (const m of mentions) {
    const a = Math.max(m.start, segment.start) - segment.start;
    const b = Math.min(m.end, segment.end) - segment.start;
    if (b > a) masked = masked.slice(0, a) + ' '.repeat(b - a) + masked.slice(b);
  }
  masked = masked.replace(DOSING_PHRASES, (m) => ' '.repeat(m.length));
  const lower = masked.toLowerCase();
  const cues: Cue[] = [];
  const at = (m: RegExpMatchArray) => ({ start: segment.start + m.index!, end: segment.start + m.index! + m[0].length, text: m[0] });
  const free = (s: Span) => !cues.some((c) => c.start < s.end && c.end > s.start);
  for (const p of PREDICATES) {
    for (const m of lower.matchAll(p.re)) {
      const span = at(m);
      if (free(span)) cues.push({ ...span, type: 'predicate', polarity: p.polarity, cls: p.cls });
    }
  }
  for (const m of lower.matchAll(NEGATOR)) {
    const span = at(m);
    if (free(span)) cues.push({ ...span, type: 'negator', polarity: -1 });
  }
  for (const m of lower.matchAll(MARKER)) {
    const span = at(m);
    const word = m[0] as keyof typeof MARKER_NEEDS;
    if (MARKER_NEEDS[word] && !MARKER_NEEDS[word].test(lower.slice(0, m.index))) continue;
    if (free(span)) cues.push({ ...span, type: 'marker', polarity: -1 });
  }
  // "switch from X to Y": the "to" after a set-aside "from" takes Y.
  const from = cues.find((c) => c.type === 'marker' && /^from$/i.test(c.text));
  if (from) {
    const to = /(?<![\p{L}])to(?![\p{L}])/iu.exec(lower.slice(from.end - segment.start));
    if (to) {
      const start = from.end + to.index;
      cues.push({ start, end: start + 2, text: 'to', type: 'predicate', polarity: 1, cls: 'action' });
    }
  }
  for (const m of lower.matchAll(REPORTED)) {
    const span = at(m);
    if (free(span)) cues.push({ ...span, type: 'reported', polarity: 1 });
  }
  for (const m of lower.matchAll(MODAL)) {
    const span = at(m);
    if (free(span)) cues.push({ ...span, type: 'modal', polarity: 1 });
  }
  return cues.sort((a, b) => a.start - b.start);
}

/** How a cue reads once negators are applied: each negator flips the first predicate after it, within four words
 * and with no coordinator between ("would not prescribe", "don't think we should start"). */
function negations(cues: Cue[], text: string): Map<Cue, boolean> {
  const negated = new Map<Cue, boolean>();
  for (const n of cues.filter((c) => c.type === 'negator')) {
    const p = cues.find((c) => c.type === 'predicate' && c.start >= n.end);
    if (!p) continue;
    const between = text.slice(n.end, p.start);
    if (wordsOf(between).length <= 4 && !COORDINATOR.test(between)) negated.set(p, !negated.get(p));
  }
  return negated;
}

function wordsOf(s: string): string[] {
  return s.toLowerCase().split(/[^\p{L}\d'’]+/u).filter(Boolean);
}

/** A predicate carries a direction of its own, except `use` verbs without a modal or imperative ("has been using"). */
function carries(p: Cue, cues: Cue[], negated: boolean, segment: Segment, text: string): boolean {
  if (p.cls !== 'use') return true;
  if (negated) return true;
  if (!wordsOf(text.slice(segment.start, p.start)).length) return true;
  const before = text.slice(Math.max(segment.start, p.start - 30), p.start);
  return cues.some((c) => c.type === 'modal' && c.end <= p.start && c.start >= p.start - 30 && wordsOf(text.slice(c.end, p.start)).length <= 2) || /\bto\s*$/i.test(before);
}

const PAST = /(?:ed|held|began|begun|kept|took|given)$/i;

/** Product of a chain of predicates: "not recommend" x "starting" = against; "stopping" x "not recommended" = for. */
function chainReading(chain: Cue[], cues: Cue[], negated: Map<Cue, boolean>, segment: Segment, text: string): Reading | undefined {
  let polarity: 1 | -1 = 1;
  let signal = false;
  let strong = false;
  let report = true;
  for (const p of chain) {
    const neg = negated.get(p) ?? false;
    polarity = (polarity * p.polarity * (neg ? -1 : 1)) as 1 | -1;
    if (!carries(p, cues, neg, segment, text)) continue;
    signal = true;
    if (p.cls !== 'harm') strong = true;
    // "Not ordered", "was not prescribed": a report that it was not done, weaker than advice either way.
    const pastReport = PAST.test(p.text) || /\b(?:did|didn['’]t|have|haven['’]t|has|hasn['’]t)\s+(?:not\s+)?(?:yet\s+)?$/i.test(text.slice(segment.start, p.start));
    if (!(p.cls === 'action' && neg && pastReport && !cues.some((c) => c.type === 'modal' && c.end <= p.start))) report = false;
  }
  if (!signal) return undefined;
  return { polarity, strong: strong && !report, why: chain.map((p) => `${negated.get(p) ? 'not ' : ''}${p.text}`) };
}

/** The direction of one mention of the subject (or a pronoun standing for it), from the words before and after it. */
function readMention(sentence: Sentence, m: Span, mentions: Span[], text: string, pronoun: boolean): Reading | undefined {
  const segment = segmentOf(sentence, m);
  if (!segment) return undefined;
  const cues = cuesIn(sentence, segment, mentions);
  const negated = negations(cues, text);
  const pre = cues.filter((c) => c.end <= m.start);
  const post = cues.filter((c) => c.start >= m.end);

  // Before: "rather than X" sets X aside; otherwise the verbs that take X as their object.
  let before: Reading | undefined;
  if (!pre.some((c) => c.type === 'reported')) {
    const last = [...pre].reverse().find((c) => c.type === 'predicate' || c.type === 'marker');
    const gap = last ? text.slice(last.end, m.start) : '';
    if (last?.type === 'marker' && wordsOf(gap).length <= 3 && !/(?<![\p{L}])(?:and|or|then|to|with|for|by|in|on|at)(?![\p{L}])/iu.test(gap)) {
      return { polarity: -1, strong: true, why: [`${last.text} ${text.slice(m.start, m.end)}`] };
    }
    const chain: Cue[] = [];
    // "Lisinopril was stopped and patiromer started": a verb followed by "and" does not take what comes after.
    if (last?.type === 'predicate' && !COORDINATOR.test(wordsOf(gap)[0] ?? '')) {
      chain.unshift(last);
      for (let i = pre.indexOf(last) - 1; i >= 0; i--) {
        const c = pre[i];
        if (c.type === 'marker') break;
        if (c.type !== 'predicate') continue;
        if (COORDINATOR.test(text.slice(c.end, chain[0].start))) break;
        chain.unshift(c);
      }
    }
    if (pronoun && (!chain.length || wordsOf(text.slice(chain.at(-1)!.end, m.start)).length > 2)) chain.length = 0;
    const reading = chain.length ? chainReading(chain, cues, negated, segment, text) : undefined;
    // "no ibuprofen", "without NSAIDs", "not testosterone": a negator with no verb between it and the drug.
    const neg = [...pre].reverse().find((c) => c.type === 'negator');
    const negatesDrug = neg && !pre.some((c) => c.type === 'predicate' && c.start > neg.start) && !negated.has(cues.find((c) => c.type === 'predicate' && c.start >= neg.end)!)
      && wordsOf(text.slice(neg.end, m.start)).length <= 3;
    if (negatesDrug) before = { polarity: reading ? (-reading.polarity as 1 | -1) : -1, strong: true, why: [`${neg!.text} ${text.slice(m.start, m.end)}`, ...(reading?.why ?? [])] };
    else before = reading;
  }

  // After: a judgement of X ("X is not recommended", "X should be held", "X: avoid").
  let after: Reading | undefined;
  const firstAfter = post.find((c) => c.type === 'predicate');
  const gap = firstAfter ? text.slice(m.end, firstAfter.start) : text.slice(m.end, segment.end);
  const gapWords = wordsOf(gap);
  const linking = (w: string[]) => w.every((x) => LINKING_WORDS.has(x) || NAME_EXTENSIONS.test(x) || x === "n't");
  if (firstAfter) {
    const lastWords = gapWords.slice(-3);
    const judged = before === undefined && !pre.some((c) => c.type === 'predicate')
      ? linking(gapWords) || (gapWords.length > 0 && LINKING_WORDS.has(lastWords.at(-1)!))
      : linking(gapWords);
    if (judged) after = chainReading(postChain(post, firstAfter, text), cues, negated, segment, text);
  } else if (gapWords.length && linking(gapWords) && post.some((c) => c.type === 'negator')) {
    after = { polarity: -1, strong: true, why: [gap.trim()] };
  }
  // "Ibuprofen: avoid", "Testosterone - not recommended": a bare label, judged by the next segment.
  if (!after && !before && linking(wordsOf(text.slice(segment.start, m.start))) && linking(gapWords) && segment.endsWith !== 'end' && segment.endsWith !== 'word') {
    after = labelJudgement(sentence, segment, text);
  }
  if (pronoun && after && !before) {
    // "It is reasonable to use acetaminophen": a dummy "it", not the drug.
    if (wordsOf(text.slice(segment.start, m.start)).length > 0 || (firstAfter && /^\s*(?:to|that|if|whether)\b/i.test(text.slice(firstAfter.end, segment.end)))) after = undefined;
  }
  if (!before && !after) return undefined;
  const polarity = ((before?.polarity ?? 1) * (after?.polarity ?? 1)) as 1 | -1;
  return { polarity, strong: (before?.strong ?? true) && (after?.strong ?? true), why: [...(before?.why ?? []), ...(after?.why ?? [])] };
}

/** The predicates after the first one that run on with only linking words between ("is best avoided"). */
function postChain(post: Cue[], first: Cue, text: string): Cue[] {
  const chain = [first];
  for (const c of post.filter((x) => x.type === 'predicate' && x.start > first.start)) {
    const between = wordsOf(text.slice(chain.at(-1)!.end, c.start));
    if (!between.every((w) => LINKING_WORDS.has(w) || w === "n't")) break;
    // "Naproxen: STOPPED (discontinued in hospital)": a parenthesis restates the verb before it, it does not govern it.
    if (/[([]/.test(text.slice(chain.at(-1)!.end, c.start))) break;
    chain.push(c);
  }
  return chain;
}

function labelJudgement(sentence: Sentence, segment: Segment, text: string): Reading | undefined {
  const index = sentence.segments.indexOf(segment);
  for (const next of sentence.segments.slice(index + 1, index + 4)) {
    const r = readBare(sentence, next, text);
    if (r) return r;
    const nextCues = cuesIn(sentence, next, []);
    if (nextCues.some((c) => c.type === 'predicate')) return undefined;
  }
  return undefined;
}

/**
 * A clause that names nothing: "Declined given CKD", "not safe here", "Not ordered by me", "I would not", "go ahead".
 * Only words without content may surround its verbs, so "acetaminophen is recommended" is not read as one.
 */
function readBare(sentence: Sentence, segment: Segment, text: string): Reading | undefined {
  const cues = cuesIn(sentence, segment, []);
  const negated = negations(cues, text);
  const predicates = cues.filter((c) => c.type === 'predicate');
  const isFunction = (w: string) => FUNCTION_WORDS.has(w) || w === "n't";
  if (!predicates.length) {
    // "I would not.", "Please don't."
    const w = wordsOf(text.slice(segment.start, segment.end));
    if (w.length && w.every(isFunction) && cues.some((c) => c.type === 'negator') && (cues.some((c) => c.type === 'modal') || w.length === 1)) {
      return { polarity: -1, strong: true, why: [text.slice(segment.start, segment.end).trim()] };
    }
    return undefined;
  }
  if (cues.some((c) => c.type === 'reported' && c.start < predicates[0].start && !/^request$/i.test(c.text))) return undefined;
  if (!wordsOf(text.slice(segment.start, predicates[0].start)).every(isFunction)) return undefined;
  const chain = postChain(predicates, predicates[0], text);
  // Nothing after the verb but words without content, or a clause that is not its object ("hold until K < 5").
  const rest = wordsOf(text.slice(chain.at(-1)!.end, segment.end));
  if (!rest.every(isFunction) && !AFTER_BARE_VERB.has(rest[0])) return undefined;
  return chainReading(chain, cues, negated, segment, text);
}

function statement(text: string, sentence: Sentence, segment: Segment, r: Reading): DirectionStatement {
  const contingent = CONTINGENCY.test(sentence.masked);
  return {
    text: text.slice(segment.start, segment.end).trim(), start: segment.start, end: segment.end,
    direction: r.polarity > 0 ? 'recommend' : 'against', strong: r.strong && !contingent,
    why: r.why.join(' + ') + (contingent ? ' (contingency)' : ''),
  };
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
