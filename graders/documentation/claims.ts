// Claim extraction (deterministic, pure): the atomic statements a note makes about the patient's record - results with
// values, units and dates, medications with dose and frequency, problems, allergies, orders placed - each with its
// character span, negation, whether it asserts a fact or proposes a plan, and the inline citations attached to it
// (`[Observation/abc]`). Concept words come from the terminology tables (resources/evidence/vocabulary.ts).
import { frequencyFromText } from '../lib/dose/frequency.ts';
import { findDates, type NoteDate } from './dates.ts';
import { type ConceptRef, type Mention, type Vocabulary } from '../../resources/evidence/vocabulary.ts';

export type ClaimKind = 'result' | 'medication' | 'condition' | 'allergy' | 'order';

export interface Claim {
  id: string;
  kind: ClaimKind;
  /** The note text of the claim (concept mention through its value, dose, frequency or date). */
  text: string;
  span: { start: number; end: number };
  concept: ConceptRef;
  /** "no history of ...", "denies ...", "not on ...", "NKDA". */
  negated: boolean;
  /** `plan`: a recommendation or hedged statement (not an assertion about the record). */
  assertion: 'fact' | 'plan';
  /** Cited resources, `Type/id`. */
  citations: string[];
  /** Results: the value; `second` is the diastolic of a blood pressure. `decimals` is how precisely it was written. */
  value?: { value: number; unit?: string; comparator?: string; decimals: number; second?: number };
  /** Results quoted as an earlier value ("eGFR fell from 45 to 28": 45 is earlier). */
  temporal?: 'earlier';
  date?: NoteDate;
  /** Medications. */
  dose?: { value: number; unit: string };
  /** Administrations per day; 0 = as needed; 1/7 = weekly. */
  frequency?: { perDay: number; text: string };
  status?: 'active' | 'started' | 'changed' | 'stopped';
  laterality?: 'left' | 'right' | 'bilateral';
}

export interface Citation {
  reference: string;
  start: number;
  end: number;
}

export interface ExtractedNote {
  text: string;
  claims: Claim[];
  citations: Citation[];
}

// ---- cue tables (regular expressions over a clause, lower-cased where noted) ------------------------------------

const UNITS = [
  'percent', 'mL/min/1.73 m2', 'mL/min/1.73m2', 'mL/min/{1.73_m2}', 'mL/min/1.73m²', 'mL/min', 'mmol/mol', 'mmol/L', 'mEq/L', 'mg/dL', 'g/dL', 'g/L', 'umol/L', 'µmol/L', 'μmol/L',
  'mg/g', 'mg/mmol', 'pg/mL', 'ng/mL', 'ng/dL', 'mIU/L', 'm[IU]/L', 'uIU/mL', 'µIU/mL', 'U/L', 'IU/L', 'fL', 'K/uL', 'K/µL', '10*3/uL', '10^3/uL',
  'x10^9/L', '10^9/L', '/min', 'bpm', 'beats/min', 'breaths/min', 'mmHg', 'mm Hg', 'mm[Hg]', 'kg/m2', 'kg/m²', 'kg', 'lbs', 'lb', 'cm', '°C', '°F', 'Cel',
  'C', 'F', '%',
];
const UNIT_RE = UNITS.map((u) => u.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|');
const VALUE_RE = new RegExp(
  '^(?:[\\s:=,(\\-–+]|\\b(?:of|was|is|were|at|level|levels|value|result|now|today|currently|remains|remained|measured|reading|count|' +
  'has|had|have|been|improved|increased|decreased|rose|risen|fell|fallen|dropped|declined|trended|trending|elevated|high|low|normal|stable|critical|' +
  'noted|found|reported|down|up|to|from|approximately|about|around|roughly|most|recent|latest|last|the|a|an)\\b)*?(<=|>=|≤|≥|<|>|~)?\\s*(\\d+(?:\\.\\d+)?)(?:\\s*/\\s*(\\d+(?:\\.\\d+)?))?(?:\\s*(' + UNIT_RE + ')(?![\\p{L}\\d]))?', 'iu');
const DOSE_RE = /^[\s,:(]*(?:(?:hydrochloride|hcl|sodium|potassium|succinate|tartrate|carbonate|propionate|sulfate|er|xr|sr|extended[- ]release|was|is|has|been|increased|decreased|reduced|titrated|changed|adjusted|uptitrated|to|at|dose|of)\b[\s,]*)*(\d+(?:\.\d+)?)\s*(mg|mcg|µg|ug|g|units?|iu|ml|puffs?|tablets?)\b/i;
export const FREQUENCIES: [RegExp, number][] = [
  [/\b(as needed|prn|p\.r\.n\.)\b/i, 0],
  [/\b(once weekly|weekly|every week|per week|once a week)\b/i, 1 / 7],
  [/\b(four times (daily|a day)|qid|every 6 hours|q6h)\b/i, 4],
  [/\b(three times (daily|a day)|tid|t\.i\.d\.|every 8 hours|q8h)\b/i, 3],
  [/\b(twice (daily|a day)|bid|b\.i\.d\.|every 12 hours|q12h)\b/i, 2],
  [/\b(once (daily|a day)|daily|qd|q\.d\.|every (day|morning|evening|night)|qam|qpm|each morning|at bedtime|nightly|qhs|in the (morning|evening))\b/i, 1],
];
const NEGATION = /\b(no|not|denies|denied|deny|without|negative for|never|free of|absence of|no evidence of|no history of|no known|ruled out|rules out)\b/gi;
const NEGATION_AFTER = /^[^.;]{0,20}?\b(ruled out|excluded|was negative|is negative|absent|denied)\b/i;
const SCOPE_END = /\b(but|however|although|though|except|yet|which|while|and is|and has|presents? with|reports?)\b|[;:]/i;
const HEDGE = /\b(recommend|recommended|recommends|consider|considering|suggest|suggested|could|may|might|should|would|plan to|planning|will|if|defer|possible|possibly|suspected|suspect|likely|probable|concern for|evaluate for|evaluation for|rule out|r\/o|screen for|screening for|risk of|risk for|at risk|risks|risking|goal|target|avoid|monitor for|monitoring for|watch for|watching for)\b/i;
/** A value as a bound ("eGFR of 20 or more", "at least 30"): a threshold in a rule, not a result. */
const THRESHOLD_AFTER = /^\s*(?:or|and)\s+(?:more|greater|higher|above|over|less|lower|below|under)\b/i;
const THRESHOLD_BEFORE = /\b(?:at least|at most|no less than|no more than|not less than|not more than)\s*$/i;
/** A drug someone asks for ("ibuprofen request", "requests ibuprofen") is not a drug the patient is on. */
const REQUEST_BEFORE = /\b(requests?|requested|requesting|asks?|asked|asking|wants|wanted|would like|request for|inquir\w*)\b/i;
const REQUEST_AFTER = /^\s*(?:refill\s+)?(?:requests?|requested|question|inquiry|consult)\b/i;
const CURRENT = /\b(continue|continues|continuing|remain on|remains on|currently on|currently taking|taking|is on|on)\b/i;
const FAMILY = /\b(family history|mother|father|sister|brother|fhx|grandmother|grandfather)\b/i;
const ALLERGY_CONTEXT = /\b(allerg\w*|intoleran\w*|anaphyla\w*|reaction to|reactions to|hives)\b/i;
const NKDA = /\b(NKDA|NKA|no known (drug |medication )?allergies)\b/gi;
const ORDER_CUE = /\b(ordered|order placed|placed (an |a )?(order|referral)|referred|referral|referring|sent (a |an )?(referral|order)|scheduled|requested|will order|order)\b/i;
const MED_STATUS: [RegExp, Claim['status']][] = [
  [/\b(stopped|stop|stopping|discontinued|discontinue|discontinuing|d\/c(?:'d)?|held|hold|holding|no longer (?:on|taking)|off)\b/gi, 'stopped'],
  [/\b(increased|increase|decreased|decrease|reduced|reduce|titrated|titrate|changed|change|switched|adjusted)\b/gi, 'changed'],
  [/\b(started|start|starting|initiated|initiate|begin|began|new|prescribed|added|add)\b/gi, 'started'],
];
const STOPPED_AFTER = /^(?:[^.;]{0,30}?\b(?:was|were|has been|had been|is) (?:stopped|discontinued|held)|\s+(?:held|stopped|discontinued|d\/c'd))\b/i;
/**
 * The drug's own description, then a stop verb: "naproxen 500 mg tablet discontinued today", "metformin ER 1000 mg BID
 * held". Only product words (strength, form, route, frequency) may stand between, so "metformin continued as lisinopril
 * was stopped" is not read as a stop of metformin.
 */
const PRODUCT_WORD = String.raw`(?:\d+(?:\.\d+)?(?:\s*-\s*\d+(?:\.\d+)?)?|mg|mcg|µg|ug|g|units?|iu|ml|%|tabs?|tablets?|caps?|capsules?|oral|po|er|xr|sr|dr|extended[- ]release|delayed[- ]release|hcl|sodium|potassium|daily|bid|tid|qid|qd|prn|once|twice|a|day|as|needed|order|prescription|rx)`;
const STOPPED_AFTER_PRODUCT = new RegExp(String.raw`^(?:[\s,/()-]*${PRODUCT_WORD}\b)*[\s,]*(?:(?:was|were|has been|had been|is|now|been)\s+)?(?:stopped|discontinued|held|d\/c'd|cancelled|canceled)\b`, 'i');
/**
 * A decision not to give the drug, stated after its name ("Ibuprofen not prescribed.", "Ibuprofen declined: CKD 4"):
 * the patient is not on it. `decision` cues state what was done (a fact: no active order); `advice` cues state a
 * judgement about the drug ("not indicated", "not recommended"), which is a recommendation, not a record fact.
 */
const NOT_GIVEN_AFTER = /^(?:[\s,/()-]*(?:\d+(?:\.\d+)?|mg|mcg|g|tabs?|tablets?|oral|po|request|requests|prescription|rx|order)\b)*[\s,]*(?:(?:was|were|is|has been|had been|will be|to be|be)\s+)?(?:(?<decision>not (?:prescribed|started|ordered|given|dispensed|renewed|refilled|restarted|resumed|added|initiated)|declined|withheld|refused|denied)|(?<advice>not (?:indicated|recommended|appropriate|advised|safe|suitable)|contraindicated|avoided|to be avoided|inappropriate))\b/i;
/**
 * The same decision stated just before the drug ("declined ibuprofen", "will not prescribe naproxen", "did not start
 * an ..."). Only a few function words may stand between, so "eGFR declined to 28 so metformin was reduced" is not it.
 */
const NOT_GIVEN_BEFORE = /\b(?:declined?|declining|refused?|refusing|withh[eo]ld(?:ing)?|not (?:prescribe|prescribed|prescribing|start|started|starting|order|ordered|ordering|give|given|add|added|initiate|initiated|restart|resume|renew|refill))\s+(?:(?:to|on|the|an?|any|further|more|her|his|their|them|him|take|taking|use|using|start|starting|oral|po)\s+){0,3}$/i;
/**
 * A condition named as the population a statement is about ("not indicated in type 1 diabetes", "contraindicated in
 * pregnancy", "recommended for patients with heart failure"): a general rule, neither a diagnosis nor its denial.
 */
const RULE_POPULATION_BEFORE = /\b(?:indicated|contraindicated|recommended|approved|appropriate|inappropriate|advised|used|effective|safe|studied|beneficial|useful|licensed|labeled|labelled)\s+(?:only\s+)?(?:in|for|with)\s+(?:(?:patients|people|persons|adults|those|anyone|individuals)\s+(?:with|who have)\s+)?$/i;
const SECTION_HEADER = /^\s*(?:#+\s*)?([A-Za-z][A-Za-z /&-]{1,40}?)\s*(?:\(([^)]*)\))?\s*:\s*(.*)$/;
const PLAN_SECTIONS = /^(plan|recommendations?|suggestions?|next steps|assessment and plan|assessment ?(?:\/|&) ?plan|a\/p|a&p)$/i;
const ALLERGY_SECTIONS = /^(allerg(y|ies)|drug allergies|adverse reactions)$/i;

interface Sentence {
  start: number;
  end: number;
  section: string;
  sectionDate?: NoteDate;
}

const CITATION_RE = /\[((?:[A-Z][A-Za-z]+\/[A-Za-z0-9\-.]{1,64})(?:\s*[,;]\s*[A-Z][A-Za-z]+\/[A-Za-z0-9\-.]{1,64})*)\]/g;

/** Inline citations `[Type/id]` or `[Type/a, Type/b]`. */
export function findCitations(text: string): Citation[] {
  const out: Citation[] = [];
  for (const m of text.matchAll(CITATION_RE)) {
    for (const ref of m[1].split(/\s*[,;]\s*/)) out.push({ reference: ref, start: m.index!, end: m.index! + m[0].length });
  }
  return out;
}

export function extractClaims(text: string, vocab: Vocabulary): ExtractedNote {
  const citations = findCitations(text);
  // Citations are masked so their ids never read as concept words.
  let masked = text;
  for (const c of citations) masked = masked.slice(0, c.start) + ' '.repeat(c.end - c.start) + masked.slice(c.end);
  const claims: Claim[] = [];
  for (const sentence of sentencesOf(masked)) claims.push(...claimsOfSentence(masked, sentence, vocab));
  claims.forEach((c, i) => { c.id = `c${i + 1}`; c.text = text.slice(c.span.start, c.span.end); });
  attachCitations(claims, citations, sentencesOf(masked));
  return { text, claims, citations };
}

/** Lines, then sentences within lines; a `Header:` line opens a section (Plan, Allergies ...) for what follows. */
function sentencesOf(text: string): Sentence[] {
  const out: Sentence[] = [];
  let section = '';
  let sectionDate: NoteDate | undefined;
  let offset = 0;
  for (const line of text.split('\n')) {
    const lineStart = offset;
    offset += line.length + 1;
    if (!line.trim()) continue;
    const header = SECTION_HEADER.exec(line);
    let bodyStart = lineStart;
    if (header && !/^\s*[-*•]/.test(line) && header[1].split(/\s+/).length <= 4) {
      const label = header[1].trim();
      const dates = findDates(line.slice(0, line.length - header[3].length));
      if (header[3].trim() === '') {
        section = label;
        sectionDate = dates[0];
        continue;
      }
      // "Allergies: penicillin" - a one-line section; the label stays the section of this line only.
      out.push(...splitSentences(text, lineStart, lineStart + line.length, label, dates[0] ?? sectionDate));
      continue;
    }
    if (!/^\s/.test(line) && !/^\s*[-*•]/.test(line) && section && !PLAN_SECTIONS.test(section) && !ALLERGY_SECTIONS.test(section)) {
      // An unindented line after a header section ends it, except inside Plan/Allergies lists.
    }
    out.push(...splitSentences(text, bodyStart, lineStart + line.length, section, sectionDate));
  }
  return out;
}

function splitSentences(text: string, start: number, end: number, section: string, sectionDate?: NoteDate): Sentence[] {
  const out: Sentence[] = [];
  let s = start;
  const re = /[.!?;](?=\s|$)/g;
  const chunk = text.slice(start, end);
  for (const m of chunk.matchAll(re)) {
    const at = start + m.index! + 1;
    // "Dr." and single capitals ("J. Smith") are not sentence ends.
    if (/\b(Dr|Mr|Mrs|Ms|vs|e\.g|i\.e|approx|St)\.$/.test(text.slice(Math.max(s, at - 6), at))) continue;
    out.push({ start: s, end: at, section, sectionDate });
    s = at;
  }
  if (s < end) out.push({ start: s, end, section, sectionDate });
  return out.filter((x) => text.slice(x.start, x.end).trim().length > 0);
}

function claimsOfSentence(text: string, sentence: Sentence, vocab: Vocabulary): Claim[] {
  const sText = text.slice(sentence.start, sentence.end);
  const mentions: Mention[] = vocab.find(sText).map((m) => ({ ...m, start: m.start + sentence.start, end: m.end + sentence.start }));
  const dates = findDates(sText).map((d) => ({ ...d, start: d.start + sentence.start, end: d.end + sentence.start }));
  const inPlan = PLAN_SECTIONS.test(sentence.section);
  const allergyContext = ALLERGY_SECTIONS.test(sentence.section) || ALLERGY_CONTEXT.test(sText);
  const out: Claim[] = [];
  const base = (m: Mention, kind: ClaimKind, end = m.end): Claim => ({
    id: '', kind, text: '', span: { start: m.start, end }, concept: { kind: m.kind, display: m.display, codes: m.codes },
    negated: false, assertion: 'fact', citations: [],
  });
  const before = (m: Mention) => text.slice(sentence.start, m.start);
  const clauseBefore = (m: Mention) => {
    const b = before(m);
    let cut = 0;
    for (const x of b.matchAll(new RegExp(SCOPE_END.source, 'gi'))) cut = x.index! + x[0].length;
    return b.slice(cut);
  };

  for (const nk of sText.matchAll(NKDA)) {
    const start = sentence.start + nk.index!;
    out.push({ id: '', kind: 'allergy', text: '', span: { start, end: start + nk[0].length }, concept: { kind: 'medication', display: 'any drug allergy', codes: [] }, negated: true, assertion: 'fact', citations: [] });
  }

  for (let i = 0; i < mentions.length; i++) {
    const m = mentions[i];
    const next = mentions[i + 1]?.start ?? sentence.end;
    const after = text.slice(m.end, next);
    const clause = clauseBefore(m);
    if (FAMILY.test(clause)) continue;
    const negated = isNegated(clause) || NEGATION_AFTER.test(after);
    const hedged = HEDGE.test(clause) || inPlan;

    if (m.kind === 'observation' || m.kind === 'panel') {
      // "losartan potassium 50 MG": a salt of the drug before it, not a lab.
      const previous = mentions[i - 1];
      if (previous?.kind === 'medication' && /^\s+$/.test(text.slice(previous.end, m.start))) continue;
      const v = VALUE_RE.exec(after);
      // "eGFR of 20 or more", "at least 30": a bound in a rule; read as neither a result nor an order.
      if (v && (THRESHOLD_AFTER.test(after.slice(v.index + v[0].length)) || THRESHOLD_BEFORE.test(after.slice(0, v.index + v[0].indexOf(v[2])).replace(/[<>≤≥=~]+\s*$/, '')))) continue;
      // "calcium 1200 mg daily" is a supplement dose, not a result.
      const doseFollows = v && !v[4] && /^\s*(mg|mcg|µg|g|units?|iu|tablets?|capsules?)\b(?!\s*\/)/i.test(after.slice(v.index + v[0].length));
      if (v && !doseFollows && !/\b(goal|target)\b/i.test(clause + after.slice(0, v.index))) {
        const gap = after.slice(0, v.index + v[0].length);
        const claim = base(m, 'result', m.end + v.index + v[0].length);
        const decimals = (v[2].split('.')[1] ?? '').length;
        claim.value = { value: Number(v[2]), decimals, ...(v[4] ? { unit: v[4] } : {}), ...(v[1] ? { comparator: v[1] } : {}), ...(v[3] ? { second: Number(v[3]) } : {}) };
        if (/\b(about|approximately|around|roughly)\b|~/i.test(after.slice(0, v.index + v[0].length))) claim.value.comparator = '~';
        claim.negated = false;
        // Thresholds in recommendations ("consider an SGLT2 inhibitor while eGFR is 20 or more") are not chart facts.
        const conditional = /\b(while|if|when|unless|until|once|whether|goal|target|keep|maintain)\b[^.;]*$/i.test(text.slice(sentence.start, m.start));
        claim.assertion = inPlan || conditional || HEDGE.test(clause) && /\b(goal|target|if|would|should)\b/i.test(clause) ? 'plan' : 'fact';
        const firstResult = mentions.find((x) => (x.kind === 'observation' || x.kind === 'panel'))?.start ?? m.start;
        const date = dateFor(dates, claim.span.end, next, firstResult) ?? sentence.sectionDate;
        if (date) claim.date = date;
        // "from 45 to 28": the first number is an earlier value, the second the current one.
        const rest = after.slice(v.index + v[0].length);
        const to = new RegExp(`^\\s*(?:\\S+\\s+){0,2}?(?:to|->|→)\\s*(\\d+(?:\\.\\d+)?)(?:\\s*(${UNIT_RE})(?![\\p{L}\\d]))?`, 'iu').exec(rest);
        if (/\bfrom\b/i.test(gap) && to) {
          claim.temporal = 'earlier';
          delete claim.date;
          out.push(claim);
          const second: Claim = base(m, 'result', claim.span.end + to.index + to[0].length);
          second.value = { value: Number(to[1]), decimals: (to[1].split('.')[1] ?? '').length, ...(claim.value.unit ? { unit: claim.value.unit } : {}) };
          if (date) second.date = date;
          out.push(second);
          continue;
        }
        out.push(claim);
      } else if (ORDER_CUE.test(sText) && !negated && !/\bfor\s+(?:\S+\s+){0,2}$/i.test(clause)) {
        const claim = base(m, 'order');
        claim.assertion = /\b(will|plan|recommend|consider|should)\b/i.test(clause) || inPlan && !/\b(ordered|placed|sent|requested|referred)\b/i.test(sText) ? 'plan' : 'fact';
        out.push(claim);
      }
      continue;
    }

    if (m.kind === 'medication') {
      if (allergyContext) {
        const claim = base(m, 'allergy');
        claim.negated = negated;
        out.push(claim);
        continue;
      }
      const claim = base(m, 'medication');
      const d = DOSE_RE.exec(after);
      let end = m.end;
      if (d) {
        claim.dose = { value: Number(d[1]), unit: d[2].toLowerCase() };
        end = m.end + d.index + d[0].length;
      }
      const window = text.slice(end, Math.min(next, end + 60));
      const f = frequencyOf(window);
      if (f) {
        claim.frequency = { perDay: f.perDay, text: f.text };
        end = Math.max(end, end + f.end);
      }
      claim.span.end = end;
      claim.status = medicationStatus(clause, after);
      claim.negated = negated && claim.status !== 'stopped';
      if (claim.status === 'stopped') claim.negated = false;
      // A current medication stated in a plan ("continue metformin") is a fact about the record.
      claim.assertion = hedged && !(claim.status === 'active' && CURRENT.test(clause) && !HEDGE.test(clause)) ? 'plan' : 'fact';
      if (claim.status === 'active' && (REQUEST_AFTER.test(after) || REQUEST_BEFORE.test(clause) && !CURRENT.test(clause.slice(clause.search(REQUEST_BEFORE))))) claim.assertion = 'plan';
      if (claim.status === 'stopped' && !HEDGE.test(clause) && /\b(stopped|discontinued|held|d\/c|cancell?ed|canceled)\b/i.test(clause + after)) claim.assertion = 'fact';
      // "Ibuprofen not prescribed", "Ibuprofen declined", "declined ibuprofen": the drug was not given - a claim that
      // the patient is not on it (supported while no active order exists), never one that they are.
      const notGiven = claim.status !== 'stopped' ? NOT_GIVEN_AFTER.exec(after) : null;
      if (notGiven || claim.status !== 'stopped' && NOT_GIVEN_BEFORE.test(clause)) {
        claim.negated = true;
        // A decision stated flatly is a fact about the record; a judgement ("not indicated") or a hedge is advice.
        claim.assertion = notGiven?.groups?.decision && !HEDGE.test(clause) ? 'fact' : notGiven?.groups?.advice ? 'plan' : claim.assertion;
      }
      out.push(claim);
      continue;
    }

    if (m.kind === 'condition') {
      // "colon cancer screening", "heart failure symptoms": the problem names a topic, it is not diagnosed.
      if (/^\s*(screening|screen|risk|prevention|surveillance|symptoms?|work-?up|evaluation|education|counseling|precautions|protocol|pathway)\b/i.test(after)) continue;
      const claim = base(m, 'condition');
      claim.negated = negated;
      claim.assertion = HEDGE.test(clause) && !/\bhistory of\b/i.test(clause) ? 'plan' : 'fact';
      // "SGLT2 inhibitor not indicated in type 1 diabetes": the condition is the population of a rule; the negation
      // belongs to "indicated". Neither a diagnosis nor its denial.
      if (RULE_POPULATION_BEFORE.test(text.slice(sentence.start, m.start))) {
        claim.negated = false;
        claim.assertion = 'plan';
      }
      const lat = laterality(text, sentence, m);
      if (lat) claim.laterality = lat;
      out.push(claim);
      continue;
    }

    if ((m.kind === 'procedure' || m.kind === 'specialty') && ORDER_CUE.test(sText) && !negated) {
      const claim = base(m, 'order');
      claim.assertion = /\b(will|plan|recommend|consider|should)\b/i.test(clause) || inPlan && !/\b(ordered|placed|sent|requested|referred)\b/i.test(sText) ? 'plan' : 'fact';
      out.push(claim);
    }
  }
  return out;
}

/**
 * Administrations per day named in a sig or note text (0 = as needed), with the words that say it and where they end,
 * or undefined. "As needed" wins (a note's "every 6 hours as needed" states a PRN drug); otherwise the shared sig
 * reader (graders/lib/dose/frequency.ts: "3 times a day", "every other day", "q12h", ranges), then the local table
 * for phrasings it does not read ("per week").
 */
export function frequencyOf(text: string): { perDay: number; text: string; end: number } | undefined {
  const prn = FREQUENCIES[0][0].exec(text);
  if (prn) return { perDay: 0, text: prn[0], end: prn.index + prn[0].length };
  const perDay = frequencyFromText(text);
  if (perDay !== undefined) {
    // The phrase's extent: the shortest prefix that reads the same, then the shortest suffix of that prefix.
    let end = text.length;
    for (const w of text.matchAll(/\S+/g)) {
      // Trailing punctuation ends the sentence, not the phrase ("twice daily." -> "twice daily").
      const at = w.index! + w[0].replace(/[.,;:!?)]+$/, '').length;
      if (at > w.index! && frequencyFromText(text.slice(0, at)) === perDay) { end = at; break; }
    }
    let start = 0;
    for (const w of text.slice(0, end).matchAll(/\S+/g)) {
      if (frequencyFromText(text.slice(w.index!, end)) !== perDay) break;
      start = w.index!;
    }
    return { perDay, text: text.slice(start, end), end };
  }
  for (const [re, n] of FREQUENCIES) {
    const f = re.exec(text);
    if (f) return { perDay: n, text: f[0], end: f.index + f[0].length };
  }
  return undefined;
}

function isNegated(clause: string): boolean {
  let last: RegExpExecArray | undefined;
  const re = new RegExp(NEGATION.source, 'gi');
  for (let m = re.exec(clause); m; m = re.exec(clause)) last = m;
  if (!last) return false;
  if (/^no longer$/i.test(last[0]) || /\bno longer\b/i.test(clause.slice(last.index))) return false;
  // NegEx-style window: the cue governs the next few words (a list after it stays in scope).
  const between = clause.slice(last.index + last[0].length);
  return between.split(/\s+/).filter(Boolean).length <= 8;
}

function medicationStatus(clause: string, after: string): NonNullable<Claim['status']> {
  if (STOPPED_AFTER.test(after) || STOPPED_AFTER_PRODUCT.test(after)) return 'stopped';
  let best: { at: number; status: NonNullable<Claim['status']> } | undefined;
  for (const [re, status] of MED_STATUS) {
    const r = new RegExp(re.source, 'gi');
    for (let m = r.exec(clause); m; m = r.exec(clause)) if (!best || m.index > best.at) best = { at: m.index, status: status! };
  }
  const cur = [...clause.matchAll(new RegExp(CURRENT.source, 'gi'))].pop();
  if (best && (!cur || cur.index! < best.at)) return best.status;
  return 'active';
}

/**
 * The date of a result: the first date right after it (before the next mention), else a date that opens the sentence
 * before its first result ("On 2026-03-02 K was 5.9, Cr 2.1") - never the date of another result.
 */
function dateFor(dates: NoteDate[], from: number, to: number, firstResult: number): NoteDate | undefined {
  const afterIt = dates.find((d) => d.start >= from && d.start < Math.max(to, from + 1) && d.start - from <= 40);
  if (afterIt) return afterIt;
  const opening = dates.filter((d) => d.end <= firstResult);
  return opening[opening.length - 1];
}

function laterality(text: string, sentence: Sentence, m: Mention): Claim['laterality'] {
  const from = Math.max(sentence.start, m.start - 25);
  const to = Math.min(sentence.end, m.end + 30);
  const window = text.slice(from, to);
  let best: { d: number; side: Claim['laterality'] } | undefined;
  for (const x of window.matchAll(/\b(left|right|bilateral)\b/gi)) {
    const at = from + x.index!;
    const d = at < m.start ? m.start - at : at - m.end;
    if (!best || d < best.d) best = { d, side: x[1].toLowerCase() as Claim['laterality'] };
  }
  return best?.side;
}

/**
 * A citation belongs to the claims of its sentence written since the previous citation in that sentence; failing
 * those, to the nearest claim before it, else the next one.
 */
function attachCitations(claims: Claim[], citations: Citation[], sentences: Sentence[]): void {
  const groups = new Map<number, Citation[]>();
  for (const c of citations) {
    const key = c.start;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  for (const [at, refs] of groups) {
    const sentence = sentences.find((s) => at >= s.start && at < s.end) ?? sentences.find((s) => s.start > at);
    const inSentence = claims.filter((c) => sentence && c.span.start >= sentence.start && c.span.end <= sentence.end);
    const previousCitation = Math.max(sentence?.start ?? 0, ...[...groups.keys()].filter((k) => k < at && sentence && k >= sentence.start).map((k) => k + 1));
    let targets = inSentence.filter((c) => c.span.end <= at && c.span.start >= previousCitation);
    if (!targets.length) {
      const beforeIt = claims.filter((c) => c.span.end <= at);
      const after = claims.find((c) => c.span.start >= at);
      targets = beforeIt.length && (!sentence || beforeIt[beforeIt.length - 1].span.start >= sentence.start) ? [beforeIt[beforeIt.length - 1]] : after ? [after] : [];
    }
    for (const t of targets) for (const r of refs) if (!t.citations.includes(r.reference)) t.citations.push(r.reference);
  }
}
