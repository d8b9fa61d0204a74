// The route of a dose, read the way a pharmacist would: Dosage.route (SNOMED CT route codes, HL7 v3
// RouteOfAdministration codes, or words), else the sig text ("PO", "by mouth", "subcut"), else the dose form in the
// drug's name ("Oral Tablet" is oral, "Metered Dose Inhaler" inhaled; "Injectable Solution" is parenteral: SC, IV or IM).
import type { CodeableConcept, Dosage } from '@medplum/fhirtypes';

export type Route =
  | 'oral' | 'sublingual' | 'buccal' | 'inhaled' | 'nasal' | 'subcutaneous' | 'intravenous' | 'intramuscular'
  | 'transdermal' | 'topical' | 'ophthalmic' | 'otic' | 'rectal' | 'vaginal';

/** SNOMED CT "Route of administration value" codes (FHIR R4 example value set route-codes). */
const SNOMED_ROUTES: Record<string, Route> = {
  '26643006': 'oral', '37839007': 'sublingual', '54471007': 'buccal', '447694001': 'inhaled', '18679011000001101': 'inhaled',
  '46713006': 'nasal', '34206005': 'subcutaneous', '47625008': 'intravenous', '78421000': 'intramuscular',
  '45890007': 'transdermal', '6064005': 'topical', '54485002': 'ophthalmic', '10547007': 'otic', '37161004': 'rectal', '16857009': 'vaginal',
};

/** Words and abbreviations (lower-cased) for each route, including HL7 v3 RouteOfAdministration codes. */
const ROUTE_WORDS: Record<Route, string[]> = {
  oral: ['oral', 'orally', 'po', 'p.o.', 'p.o', 'by mouth', 'per os', 'oral route', 'swallow', 'enteral'],
  sublingual: ['sublingual', 'sublingually', 'sl', 'under the tongue', 'sublingual route'],
  buccal: ['buccal', 'bucc', 'buccal route'],
  inhaled: ['inhaled', 'inhalation', 'inhale', 'inh', 'ih', 'respiratory tract route', 'respiratory', 'nebulized', 'via nebulizer', 'ipinhl', 'orinhl', 'respinhl', 'inhalation route'],
  nasal: ['nasal', 'intranasal', 'intranasally', 'nasally', 'in each nostril', 'nasinhl', 'nasal route'],
  subcutaneous: ['subcutaneous', 'subcutaneously', 'subcut', 'subq', 'sub-q', 'sq', 'sc', 's.c.', 'subcutaneous route'],
  intravenous: ['intravenous', 'intravenously', 'iv', 'i.v.', 'ivinj', 'ivinf', 'ivpush', 'intravenous route'],
  intramuscular: ['intramuscular', 'intramuscularly', 'im', 'i.m.', 'iminj', 'intramuscular route'],
  transdermal: ['transdermal', 'transdermally', 'td', 'trnsderm', 'transdermal route', 'apply patch'],
  topical: ['topical', 'topically', 'top', 'to the skin', 'topical route', 'cutaneous'],
  ophthalmic: ['ophthalmic', 'in the eye', 'in each eye', 'ophthalmic route'],
  otic: ['otic', 'in the ear', 'in each ear', 'otic route'],
  rectal: ['rectal', 'rectally', 'pr', 'per rectum'],
  vaginal: ['vaginal', 'vaginally', 'pv', 'per vagina'],
};

const WORD_TO_ROUTE = new Map<string, Route>();
for (const [route, words] of Object.entries(ROUTE_WORDS) as [Route, string[]][]) for (const w of [route, ...words]) WORD_TO_ROUTE.set(w, route);

/** Routes a parenteral product may be given by when its order names none. */
const PARENTERAL: Route[] = ['subcutaneous', 'intravenous', 'intramuscular'];

/** Dose forms in RxNorm names and everyday words, most specific first ("Sublingual Tablet" before "Tablet"). */
const DOSE_FORMS: [RegExp, Route[]][] = [
  [/\bsublingual\b/i, ['sublingual']],
  [/\bbuccal\b/i, ['buccal']],
  [/\bnasal\b/i, ['nasal']],
  [/\b(inhal\w*|inhaler|nebuli[sz]\w*|metered dose|dry powder)\b/i, ['inhaled']],
  [/\b(ophthalmic|eye drops?)\b/i, ['ophthalmic']],
  [/\botic\b/i, ['otic']],
  [/\b(rectal|suppositor\w*|enema)\b/i, ['rectal']],
  [/\bvaginal\b/i, ['vaginal']],
  [/\b(transdermal|patch)\b/i, ['transdermal']],
  [/\b(topical|cream|ointment|lotion|shampoo)\b/i, ['topical']],
  [/\b(injectable|injection|injector|prefilled syringe|syringe|auto-?injector|pen|cartridge|vial|infusion)\b/i, PARENTERAL],
  [/\b(oral|tablets?|tabs?|capsules?|caps?|caplets?|softgels?|chewable|elixir|syrup|lozenges?|troche)\b/i, ['oral']],
];

/** The route a route word or code names ("PO", "26643006", "by mouth"), or undefined. */
export function routeOfWord(word: string | undefined): Route | undefined {
  if (!word) return undefined;
  const w = word.trim().toLowerCase().replace(/\s+/g, ' ');
  return SNOMED_ROUTES[w] ?? WORD_TO_ROUTE.get(w) ?? WORD_TO_ROUTE.get(w.replace(/ route$/, ''));
}

/** The route of a Dosage.route concept: any coding code or display, or its text. */
export function routeOfConcept(concept: CodeableConcept | undefined): Route | undefined {
  for (const c of concept?.coding ?? []) {
    const r = routeOfWord(c.code) ?? routeOfWord(c.display);
    if (r) return r;
  }
  return routeOfWord(concept?.text) ?? routeInText(concept?.text);
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const TEXT_PATTERNS: [RegExp, Route][] = [...WORD_TO_ROUTE.entries()]
  .filter(([w]) => !/^\d+$/.test(w))
  .map(([w, r]) => [new RegExp(`(?<![\\w.])${escape(w)}(?![\\w])`, 'i'), r]);

/** The first route named in a sig ("1 tab PO daily", "inject 10 units subcut nightly"), or undefined. */
export function routeInText(text: string | undefined): Route | undefined {
  if (!text) return undefined;
  let best: { at: number; length: number; route: Route } | undefined;
  for (const [re, route] of TEXT_PATTERNS) {
    const m = re.exec(text);
    if (m && (!best || m.index < best.at || (m.index === best.at && m[0].length > best.length))) best = { at: m.index, length: m[0].length, route };
  }
  return best?.route;
}

/** The routes a dose form allows ("lisinopril 10 MG Oral Tablet" -> oral; "Injectable Solution" -> SC/IV/IM). */
export function routesOfDoseForm(names: string[]): Route[] {
  for (const name of names) for (const [re, routes] of DOSE_FORMS) if (re.test(name)) return routes;
  return [];
}

export interface RouteReading {
  /** The routes the order allows: one when stated, several for a parenteral form without a route. */
  routes: Route[];
  /** Where it was read, for evidence: 'Dosage.route', 'text', 'dose form', or 'none'. */
  from: 'Dosage.route' | 'text' | 'dose form' | 'none';
  /** What was written (codes, display, text), lower-cased. */
  written: string[];
}

/**
 * The route of a dosage: Dosage.route when it names one, else the sig text, else the dose form of the product
 * (`productNames`: the drug's names, e.g. "lisinopril 10 MG Oral Tablet"). A stated route always wins over the form.
 */
export function routeOf(dosage: Dosage | undefined, productNames: string[] = []): RouteReading {
  const concept = dosage?.route;
  const written = [...(concept?.coding ?? []).flatMap((c) => [c.code, c.display]), concept?.text].filter((w): w is string => !!w).map((w) => w.toLowerCase());
  const stated = routeOfConcept(concept);
  if (stated) return { routes: [stated], from: 'Dosage.route', written };
  const inText = routeInText(dosage?.text) ?? routeInText(dosage?.patientInstruction);
  if (inText) return { routes: [inText], from: 'text', written: [...written, inText] };
  const form = routesOfDoseForm(productNames);
  if (form.length > 0) return { routes: form, from: 'dose form', written };
  return { routes: [], from: 'none', written };
}

/** The route names an expectation accepts: ['26643006', 'po'] -> oral. Unknown words are kept as written. */
export function expectedRoutes(expected: string[]): { routes: Route[]; literal: string[] } {
  const routes: Route[] = [];
  const literal: string[] = [];
  for (const e of expected) {
    const r = routeOfWord(e);
    if (r) routes.push(r);
    else literal.push(e.toLowerCase());
  }
  return { routes, literal };
}
