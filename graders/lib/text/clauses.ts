// Text cut into what a reader weighs one at a time: lines, sentences (a parenthesis is a sentence of its own), and
// segments within a sentence (split at commas, colons, dashes and "but", "because", "which" ...). Lines under a
// section that quotes the request ("Question: start testosterone?") are marked `reported`: they are the asker's
// words, not the writer's advice.
import { REPORTED_SECTIONS } from './direction-cues.ts';

export interface Segment {
  start: number;
  end: number;
  /** What ends the segment: ':' and '-' can end a label ("Ibuprofen: avoid"; "Testosterone - not recommended"). */
  endsWith: ',' | ':' | '-' | 'word' | 'end';
}

export interface Sentence {
  start: number;
  end: number;
  /** The sentence over the whole text's offsets, with parentheses blanked (they are sentences of their own). */
  masked: string;
  reported: boolean;
  question: boolean;
  segments: Segment[];
}

const LABEL = /^(\s*(?:[-*•]\s*)?(?:#+\s*)?)([A-Za-z][A-Za-z0-9 /&'’-]{0,40}?)\s*(?:\([^)]*\))?\s*:\s*/;
const SENTENCE_END = /[.!?;](?=\s|$)/g;
const ABBREVIATION = /\b(?:Dr|Mr|Mrs|Ms|vs|e\.g|i\.e|approx|St|Pt|pt)\.$/;
const BOUNDARY = /\s[-–—]\s|[–—]|,|:|(?<![\p{L}\d])(?:but|however|whereas|although|though|so|because|since|which|while|due to|unless|except|(?<!\b(?:be|been|being|is|was|are|were|not|n't|if)\s)given)(?![\p{L}\d])|(?<![\p{L}\d])(?:and|or)\s+(?=(?:i|we|i'd|we'd|i'll|we'll|i've|we've)(?![\p{L}\d]))/giu;

/**
 * The sentences of a text. `keepLabel(label)` says whether a `Label:` opening a line is content (e.g. it names the
 * drug: "Ibuprofen: avoid") rather than a section name to drop ("Assessment:").
 */
export function sentencesOf(text: string, keepLabel: (label: string) => boolean = () => false): Sentence[] {
  const out: Sentence[] = [];
  let offset = 0;
  let reportedSection = false;
  for (const line of text.split('\n')) {
    const lineStart = offset;
    offset += line.length + 1;
    if (!line.trim()) continue;
    let contentStart = lineStart;
    let reported = reportedSection;
    const label = LABEL.exec(line);
    if (label && label[2].trim().split(/\s+/).length <= 4 && !keepLabel(label[2])) {
      const isReported = REPORTED_SECTIONS.test(label[2].trim());
      if (label[0].length >= line.trimEnd().length) {
        reportedSection = isReported;
        continue;
      }
      // A one-line section ("Question: ...") is reported on its own line; a different label ends a reported section.
      reported = isReported;
      reportedSection = false;
      contentStart = lineStart + label[0].length;
    }
    out.push(...sentencesOfLine(text, contentStart, lineStart + line.length, reported));
  }
  return out;
}

function sentencesOfLine(text: string, start: number, end: number, reported: boolean): Sentence[] {
  const out: Sentence[] = [];
  const chunk = text.slice(start, end);
  let s = start;
  const ends: number[] = [];
  for (const m of chunk.matchAll(SENTENCE_END)) {
    const at = start + m.index! + 1;
    if (m[0] === '.' && ABBREVIATION.test(text.slice(Math.max(s, at - 6), at))) continue;
    ends.push(at);
  }
  if (ends.at(-1) !== end) ends.push(end);
  for (const e of ends) {
    if (text.slice(s, e).trim()) out.push(...withParentheses(text, s, e, reported));
    s = e;
  }
  return out;
}

/** A sentence with each "( ... )" blanked, and each parenthesis as a sentence of its own. */
function withParentheses(text: string, start: number, end: number, reported: boolean): Sentence[] {
  const raw = text.slice(start, end);
  let masked = raw;
  const inner: Sentence[] = [];
  for (const m of raw.matchAll(/\(([^()]*)\)/g)) {
    masked = masked.slice(0, m.index!) + ' '.repeat(m[0].length) + masked.slice(m.index! + m[0].length);
    const s = start + m.index! + 1;
    inner.push(sentence(text.slice(s, s + m[1].length), s, reported));
  }
  return [sentence(masked, start, reported), ...inner];
}

function sentence(masked: string, start: number, reported: boolean): Sentence {
  const segments: Segment[] = [];
  let s = 0;
  for (const m of masked.matchAll(BOUNDARY)) {
    const kind: Segment['endsWith'] = m[0] === ',' ? ',' : m[0] === ':' ? ':' : /^\s*[-–—]\s*$/.test(m[0]) ? '-' : 'word';
    segments.push({ start: start + s, end: start + m.index!, endsWith: kind });
    s = m.index! + m[0].length;
  }
  segments.push({ start: start + s, end: start + masked.length, endsWith: 'end' });
  return {
    start, end: start + masked.length, masked, reported, question: /\?\s*$/.test(masked),
    segments: segments.filter((g) => /[\p{L}\d]/u.test(masked.slice(g.start - start, g.end - start))),
  };
}
