// Word-prefix text search over a concept's display and synonyms, and the ranking of matches.
// Every word of the filter must be the prefix of some word of the concept ("pot ser" finds
// "Potassium [Moles/volume] in Serum or Plasma"); better matches sort first.
import type { Concept } from './model.ts';

/** Lower-case alphanumeric words, in order. */
export function words(text: string): string[] {
  return text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0);
}

/** Fills `concept.words` and `concept.terms` from its display and designations (once, at index time). */
export function prepareConceptText(concept: Concept): void {
  const terms: string[] = [];
  if (concept.display) terms.push(concept.display.toLowerCase());
  for (const d of concept.designations) {
    const term = d.value.toLowerCase();
    if (!terms.includes(term)) terms.push(term);
  }
  const all = new Set<string>();
  for (const term of terms) for (const w of words(term)) all.add(w);
  concept.terms = terms;
  concept.words = [...all];
}

export interface TextQuery {
  text: string;
  words: string[];
}

export function textQuery(text: string): TextQuery {
  return { text: text.trim().toLowerCase(), words: words(text) };
}

/** True when every query word is a prefix of a word of the concept's display or synonyms (or the code itself). */
export function conceptMatches(concept: Concept, query: TextQuery): boolean {
  if (query.words.length === 0) return true;
  const conceptWords = concept.words ?? [];
  const code = concept.code.toLowerCase();
  for (const qw of query.words) {
    let found = code === qw;
    for (let i = 0; !found && i < conceptWords.length; i++) found = conceptWords[i].startsWith(qw);
    if (!found) return false;
  }
  return true;
}

/**
 * Lower is better: the tier of the best matching term (exact term, term starting with the query, all words in one term
 * with the first word leading, all words in one term, words spread over terms, code only), then the curated rank, then
 * the length of the matched term in words (so "Potassium" outranks "Potassium/Creatinine ratio").
 */
export function matchScore(concept: Concept, query: TextQuery, rank: number | undefined): number {
  let best = 5;
  let bestLength = 99;
  const terms = concept.terms ?? [];
  for (let t = 0; t < terms.length; t++) {
    const term = terms[t];
    let tier: number;
    if (term === query.text) tier = 0;
    else if (term.startsWith(query.text)) tier = 1;
    else {
      const termWords = words(term);
      const all = query.words.every((qw) => termWords.some((w) => w.startsWith(qw)));
      if (!all) continue;
      tier = termWords[0]?.startsWith(query.words[0] ?? '') ? 2 : 3;
    }
    const length = words(term).length;
    if (tier < best || (tier === best && length < bestLength)) {
      best = tier;
      bestLength = length;
    }
  }
  if (best === 5 && concept.code.toLowerCase() === query.text) best = 0;
  else if (best === 5 && terms.length > 0) best = 4;
  const rankPart = Math.min(rank ?? 9999, 9999);
  return best * 1e8 + rankPart * 1e3 + Math.min(bestLength, 999);
}
