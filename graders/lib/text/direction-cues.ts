// The words that carry a writer's direction about a drug or an action: what recommends or does it, what declines or
// stops it, what negates, what marks the thing set aside ("rather than X"), and what reports someone else's words
// ("the patient requests X"). Tables, so a missed phrasing is one line to add; direction.ts reads them.

/** `advice`: a judgement ("recommend", "contraindicated", "reasonable"); `action`: doing or undoing it ("start",
 * "hold"); `use`: taking or giving it ("use", "take"), directional only with a modal or an imperative ("can use",
 * "use acetaminophen"), since "has been using ibuprofen" is history; `harm`: a risk stated about it ("worsens"),
 * a weak reason against. */
export type CueClass = 'advice' | 'action' | 'use' | 'harm';

export interface PredicateCue {
  re: RegExp;
  polarity: 1 | -1;
  cls: CueClass;
}

const words = (source: string) => new RegExp(`(?<![\\p{L}\\d])(?:${source})(?![\\p{L}\\d])`, 'giu');

/** Longest phrases first: a phrase hides the shorter cues inside it ("recommend against" is not "recommend"). */
export const PREDICATES: PredicateCue[] = [
  {
    re: words("(?:recommend(?:s|ed|ing)?|advis(?:e|es|ed|ing)|decide[sd]?|decided|caution(?:s|ed)?|argue[sd]?|counsel(?:l?ed|s)?|vote[sd]?|lean(?:s|ing)?|err(?:ing)? on the side|would be|am|i'm) against|hold(?:s|ing)? off(?: on)?|held off(?: on)?|refrain(?:s|ed|ing)? from|steer(?:ed)? clear of|stay away from|ill[- ]advised"),
    polarity: -1, cls: 'advice',
  },
  { re: words('go(?:ing)? ahead|green light|first[- ]line|on hold|taper(?:ed|ing)? off|wean(?:ed|ing)? off|switch(?:ed|ing|es)? to|chang(?:e|ed|ing) to|transition(?:ed|ing)? to|treat(?:ed)? with|step(?:ped|ping)?[- ]up to|escalat(?:e|ed|ing) to|(?:up)?titrat(?:e|ed|ing) to|increas(?:e|ed|ing) to'), polarity: 1, cls: 'action' },
  {
    re: words('avoid(?:s|ed|ing|ance)?|contraindicat(?:ed|ion|ions)|unsafe|inappropriate|inadvisable|discourage[sd]?|unnecessary|unwarranted|not advisable|(?:a )?bad idea|unwise|imprudent'),
    polarity: -1, cls: 'advice',
  },
  {
    re: words("stop(?:s|ped|ping)?|discontinu(?:e|es|ed|ing|ation)|d/c(?:'d|ed)?|cease[sd]?|ceasing|hold(?:s|ing)?|held|with(?:hold|held)(?:s|ing)?|paus(?:e|es|ed|ing)|defer(?:s|red|ring)?|declined|declining to|decline (?:to|the|this|your)|refus(?:e|es|ed|ing)|deprescrib(?:e|ed|ing)|cancel(?:l?ed|s)?|rescind(?:ed)?"),
    polarity: -1, cls: 'action',
  },
  {
    re: words('recommend(?:s|ed|ing|ation|ations)?|suggest(?:s|ed|ing|ion)?|advis(?:e|es|ed|ing|able)|consider(?:s|ed|ing)?|favou?r(?:s|ed|able)?|prefer(?:s|red|able|ence)?|endorse[sd]?|encourage[sd]?|reasonable|appropriate|acceptable|fine|ok|okay|safe|safely|suitable|indicated|warranted|beneficial|allowed|permitted|approve[sd]?|agree[sd]?|needed|necessary|justified|sensible|candidate|best|(?:a )?good (?:idea|option|choice)|wise|prudent|proceed(?:s|ed)?(?: with)?'),
    polarity: 1, cls: 'advice',
  },
  {
    re: words('start(?:s|ed|ing)?|begin(?:s|ning)?|began|begun|initiat(?:e|es|ed|ing|ion)|prescrib(?:e|es|ed|ing)|prescription|order(?:s|ed|ing)?|placed|continu(?:e|es|ed|ing|ation)|resum(?:e|es|ed|ing|ption)|re-?start(?:s|ed|ing)?|add(?:s|ed|ing)?|trial|try|trying|tried|maintain(?:s|ed|ing)?|keep(?:s|ing)?|kept|renew(?:s|ed|al)?|refill(?:s|ed)?'),
    polarity: 1, cls: 'action',
  },
  { re: words('use[sd]?|using|usage|tak(?:e|es|ing)|took|giv(?:e|es|ing|en)|administer(?:s|ed|ing)?|administration|receiv(?:e|es|ing)'), polarity: 1, cls: 'use' },
  {
    re: words('harmful|dangerous|risky|nephrotoxic|toxic|worsen(?:s|ed|ing)?|exacerbat(?:e|es|ed|ing)|(?:raises?|increases?|carr(?:y|ies)) (?:the |a |an )?(?:high |higher )?risk|(?:high|higher|increased) risk'),
    polarity: -1, cls: 'harm',
  },
];

/** Negation: flips the predicate it governs, or, right before the drug with no predicate between, negates the drug
 * itself ("no ibuprofen", "without NSAIDs"). */
export const NEGATOR = /(?<![\p{L}\d])(?:not|no|never|nor|neither|without|cannot|none|no longer)(?![\p{L}\d])|n['’]t(?![\p{L}\d])/giu;

/** The thing set aside: "rather than X", "instead of X", "X is preferred over Y" (after prefer/favour), "switch from X". */
export const MARKER = /(?<![\p{L}\d])(?:rather than|instead of|in place of|in lieu of|as opposed to|(?:as )?an alternative to|alternatives? to|over|from)(?![\p{L}\d])/giu;
/** "over" and "from" mark the set-aside thing only after these ("over-the-counter", "from 45 to 28" do not). */
export const MARKER_NEEDS = { over: /\b(?:prefer\w*|favou?r\w*|better|choose|chose|chosen|select\w*)\b/i, from: /\b(?:switch\w*|chang\w*|transition\w*|convert\w*|mov(?:e|ed|ing))\b/i };

/** Someone else's words: a drug after these is the request, not the writer's advice. */
export const REPORTED = /(?<![\p{L}\d])(?:request(?:s|ed|ing)?|asks?|asked|asking|want(?:s|ed)?|would like|wish(?:es|ed)?|inquir\w*|enquir\w*|questions?|questioned|whether|wonder(?:s|ed|ing)?|interested in|hoping|hopes|propos(?:e|es|ed|al))(?![\p{L}\d])/giu;

/** A modal or a judgement before `use`-class verbs makes them advice ("can use", "safe to take", "should not give"). */
export const MODAL = /(?<![\p{L}\d])(?:can|could|may|might|should|must|would|will|shall|to|please|let's|i'd|we'd|ok|okay|fine|safe|reasonable|do)(?![\p{L}\d])/giu;

/** Joins two verb phrases ("stop X and start Y"): a chain of predicates does not run across it. */
export const COORDINATOR = /(?<![\p{L}\d])(?:and|or|then|plus|also|&)(?![\p{L}\d])/iu;

/** Words that say nothing of their own: the rest of a statement may be made of these ("I would not.", "Not safe here"). */
export const FUNCTION_WORDS = new Set([
  'i', 'we', "i'd", "we'd", "i'm", "i'll", "we'll", "let's", 'me', 'my', 'our', 'us', 'you', 'it', "it's", 'this', 'that', 'these', 'those', 'he', 'she',
  'they', 'is', 'are', 'was', 'were', 'be', 'been', 'being', 'am', 'would', 'should', 'will', 'shall', 'can', 'could', 'may', 'might', 'must',
  'do', 'does', 'did', 'have', 'has', 'had', 'not', 'no', 'never', 'also', 'therefore', 'thus', 'so', 'definitely', 'absolutely', 'strongly',
  'certainly', 'generally', 'currently', 'still', 'really', 'just', 'then', 'now', 'here', 'please', 'the', 'a', 'an', 'to', 'honestly',
  'personally', 'overall', 'clinically', 'medically', 'probably', 'simply', 'at', 'this', 'time', 'point', 'for', 'by', 'in', 'today',
  'either', 'anymore', 'present', 'presently', 'patient', 'case', 'setting', 'situation', 'her', 'him', 'his', 'them', 'as', 'of', 'on',
  'recommended', 'advised', 'ok', 'okay', "don't", "won't", "wouldn't", "shouldn't", "can't", 'cannot', "didn't", "doesn't", "isn't", "aren't",
  "wasn't", 'request', 'ahead', 'all', 'yet', 'fully', 'really', 'quite', 'very', 'entirely', 'completely', 'okay', 'regret', 'sorry', 'unfortunately',
]);

/** Words that may follow a verb that has no object ("hold until K < 5", "avoid in CKD", "declined for now"). */
export const AFTER_BARE_VERB = new Set([
  'until', 'till', 'pending', 'for', 'in', 'at', 'given', 'due', 'because', 'as', 'if', 'unless', 'while', 'now', 'today', 'temporarily',
  'indefinitely', 'permanently', 'then', 'and', 'here', 'altogether', 'entirely', 'completely', 'anymore', 'currently', 'by', 'per', 'since',
  'after', 'before', 'during', 'on', 'this', 'time', 'point',
]);

/** Copulas, modals and adverbs that may stand between a drug and a judgement of it ("ibuprofen is not", "should be"). */
export const LINKING_WORDS = new Set([
  'is', 'are', 'was', 'were', 'be', 'been', 'being', 'remains', 'remain', 'seems', 'appears', 'would', 'should', 'will', 'can', 'could', 'may',
  'might', 'must', 'not', 'also', 'therefore', 'definitely', 'strongly', 'generally', 'still', 'currently', 'clearly', 'relatively', 'absolutely',
  'best', 'considered', 'deemed', 'felt', 'here', 'now', 'at', 'this', 'time', "isn't", "aren't", "wasn't", "shouldn't", "won't", "wouldn't",
  "can't", 'cannot', 'never', 'no', 'longer', 'to', 'really', 'quite', 'very', 'entirely', 'totally', 'fully', 'perfectly',
]);

/** Nouns that extend the drug's name ("NSAID use", "testosterone therapy", "ibuprofen 400 mg TID"). */
export const NAME_EXTENSIONS = /^(?:\d[\d.,]*|mg|mcg|µg|ug|g|ml|meq|mmol|iu|units?|tabs?|tablets?|capsules?|caps?|once|twice|daily|bid|tid|qid|qd|qhs|qam|qpm|prn|po|im|iv|sc|sq|subq|orally|weekly|monthly|use|usage|therapy|treatment|replacement|products?|dosing|dose|doses|cream|gel|injections?|supplementation|prescription|cypionate|enanthate|request|requested|trt|er|xr|sr|hcl)$/i;

/** Sections of a note (or lines of an answer) that quote the request: what follows is not the writer's advice. */
export const REPORTED_SECTIONS = /^(?:questions?|requests?|consult(?:ation)? questions?|clinical questions?|reason for (?:consult(?:ation)?|referral|request|e-?consult)|pcp questions?|question from \w+|ask|cc|chief complaint|hpi|history of present illness|subjective|patient requests?|requested|indication for consult)$/i;

/** Whole-answer words that answer the question itself ("No – not safe here"). */
export const ANSWER_WORD = /^\s*(yes|yeah|yep|correct|affirmative|ok|okay|no|nope|nah|negative|declined?)\s*(?:[.,!:;–—-]|$)/i;
export const NEGATIVE_ANSWER_WORDS = new Set(['no', 'nope', 'nah', 'negative', 'decline', 'declined']);

/** A condition that makes a statement a contingency plan ("if K rises above 5.5, hold it"), not the advice itself.
 * "If needed", "as tolerated" are no conditions: "if needed, ibuprofen is fine" recommends ibuprofen. */
export const CONTINGENCY = /(?<!\beven\s)\b(?:if|unless|once|should|in case|in the event)\b[^;.]*?(?:[<>≥≤]|\d|\b(?:rise|rises|rising|risen|fall|falls|falling|exceed\w*|above|below|drops?|worsen\w*|develops?|occur\w*|side effects?|adverse|intoleran\w*|reaction|bleed\w*|hyperkalemi\w*|aki|symptoms? recur\w*|labs?|results?)\b)/i;

/** "as needed", "if needed": dosing words, not a judgement that the drug is needed. */
export const DOSING_PHRASES = /\b(?:as|if|when) (?:needed|necessary|required|directed|tolerated)\b|\bprn\b/gi;
