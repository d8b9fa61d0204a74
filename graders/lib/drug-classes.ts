// Drug classes as data: class -> member ingredients (lower-case generic names), each with the source that defines
// it. The harm rules (graders/lib/harm/) and the declarative standard checks name classes by id; `classesOf` and
// `classesOfOrder` say which classes a drug belongs to, recognising it by any RxNorm code, brand, display or text
// (graders/lib/drugs.ts), with its route and daily dose (graders/lib/dose/).
import type { CodeableConcept, MedicationRequest } from '@medplum/fhirtypes';
import { codingsOf } from './codings.ts';
import { drugIngredientNames } from './drugs.ts';
import { doseIn, routeOf, strengthIn, timesPerDay, type Route } from './medications.ts';

/** How a drug reaches the body, as far as class membership cares (an ICS is inhaled, a topical NSAID is not systemic). */
export type RouteKind = 'systemic' | 'inhaled' | 'nasal' | 'transdermal' | 'topical' | 'ophthalmic' | 'otic' | 'unknown';

export interface DrugClass {
  id: string;
  name: string;
  /** Member ingredients, lower-case generic names (as RxNorm IN names them). */
  ingredients: string[];
  /** The routes at which a member counts (default any): an NSAID gel is not a systemic NSAID. 'unknown' always counts. */
  routes?: RouteKind[];
  /**
   * Members that count only above a daily dose (aspirin is an NSAID above 325 mg/day, an antiplatelet below;
   * doxepin is strongly anticholinergic above 6 mg/day), and whether they count when the dose cannot be read.
   */
  doseLimited?: Record<string, { aboveDailyMg: number; whenUnknown: boolean }>;
  /** What a clinician calls the class in text, besides naming a member ("SGLT2 inhibitor", "MRA", "sulfa"). */
  names?: string[];
  source: string;
}

const BEERS_2023 = 'American Geriatrics Society 2023 updated AGS Beers Criteria, J Am Geriatr Soc 2023;71:2052-2081';
const BEERS_TABLE_7 = `${BEERS_2023}, Table 7 (drugs with strong anticholinergic properties)`;
const KDIGO_2024 = 'KDIGO 2024 Clinical Practice Guideline for the Evaluation and Management of CKD, Kidney Int 2024;105(4S):S117-S314';
const FDA_LABEL = 'FDA prescribing information (established pharmacologic class)';
const SYSTEMIC: RouteKind[] = ['systemic'];
const INHALED: RouteKind[] = ['inhaled'];

const classes: DrugClass[] = [
  {
    id: 'nsaid', name: 'NSAIDs', names: ['nsaid', 'non-steroidal anti-inflammatory', 'nonsteroidal anti-inflammatory', 'non-steroidal'], routes: SYSTEMIC, source: `${BEERS_2023}, Table 2 (non-COX-selective and COX-2 NSAIDs); ${KDIGO_2024}`,
    ingredients: ['ibuprofen', 'naproxen', 'diclofenac', 'meloxicam', 'celecoxib', 'indomethacin', 'ketorolac', 'ketoprofen', 'etodolac',
      'nabumetone', 'piroxicam', 'sulindac', 'diflunisal', 'flurbiprofen', 'oxaprozin', 'fenoprofen', 'mefenamic acid', 'meclofenamate',
      'tolmetin', 'salsalate', 'aspirin'],
    // Low-dose aspirin (81-325 mg/day) is antiplatelet therapy, not an analgesic NSAID (Beers 2023 lists aspirin > 325 mg/day).
    doseLimited: { aspirin: { aboveDailyMg: 325, whenUnknown: false } },
  },
  {
    id: 'potassium-supplement', name: 'potassium supplements', source: `${KDIGO_2024}, section 3.10 (hyperkalemia in CKD)`,
    ingredients: ['potassium chloride', 'potassium citrate', 'potassium bicarbonate', 'potassium gluconate', 'potassium acetate', 'potassium phosphate'],
  },
  { id: 'potassium-sparing-diuretic', name: 'potassium-sparing diuretics', source: FDA_LABEL, ingredients: ['amiloride', 'triamterene'] },
  {
    id: 'ace-inhibitor', name: 'ACE inhibitors', names: ['ace inhibitor', 'acei', 'ace-i', 'angiotensin-converting enzyme inhibitor', 'angiotensin converting enzyme inhibitor'], source: FDA_LABEL,
    ingredients: ['benazepril', 'captopril', 'enalapril', 'enalaprilat', 'fosinopril', 'lisinopril', 'moexipril', 'perindopril', 'quinapril', 'ramipril', 'trandolapril'],
  },
  {
    id: 'arb', name: 'angiotensin II receptor blockers', names: ['arb', 'angiotensin receptor blocker', 'angiotensin ii receptor blocker'], source: FDA_LABEL,
    ingredients: ['azilsartan', 'candesartan', 'eprosartan', 'irbesartan', 'losartan', 'olmesartan', 'telmisartan', 'valsartan'],
  },
  // Sacubitril exists only with valsartan, so an ARNI order is also an ARB.
  { id: 'arni', name: 'angiotensin receptor-neprilysin inhibitors', names: ['arni', 'angiotensin receptor-neprilysin inhibitor'], source: FDA_LABEL, ingredients: ['sacubitril'] },
  { id: 'renin-inhibitor', name: 'direct renin inhibitors', source: FDA_LABEL, ingredients: ['aliskiren'] },
  { id: 'mra', name: 'mineralocorticoid receptor antagonists', names: ['mra', 'mineralocorticoid receptor antagonist', 'mineralocorticoid antagonist', 'mineralocorticoid', 'aldosterone antagonist'], source: `${FDA_LABEL}; ${KDIGO_2024}`, ingredients: ['spironolactone', 'eplerenone', 'finerenone'] },
  {
    id: 'potassium-binder', name: 'potassium binders', names: ['potassium binder'], source: `${KDIGO_2024}, section 3.10`,
    ingredients: ['patiromer', 'sodium zirconium cyclosilicate', 'sodium polystyrene sulfonate', 'calcium polystyrene sulfonate'],
  },
  {
    id: 'strong-anticholinergic', name: 'strongly anticholinergic drugs', source: BEERS_TABLE_7,
    ingredients: [
      'disopyramide',
      'amitriptyline', 'amoxapine', 'clomipramine', 'desipramine', 'doxepin', 'imipramine', 'nortriptyline', 'paroxetine', 'protriptyline', 'trimipramine',
      'prochlorperazine', 'promethazine',
      'brompheniramine', 'carbinoxamine', 'chlorpheniramine', 'clemastine', 'cyproheptadine', 'dexbrompheniramine', 'dexchlorpheniramine',
      'dimenhydrinate', 'diphenhydramine', 'doxylamine', 'hydroxyzine', 'meclizine', 'pyrilamine', 'triprolidine',
      'darifenacin', 'fesoterodine', 'flavoxate', 'oxybutynin', 'solifenacin', 'tolterodine', 'trospium',
      'benztropine', 'trihexyphenidyl',
      'chlorpromazine', 'clozapine', 'loxapine', 'olanzapine', 'perphenazine', 'thioridazine', 'trifluoperazine',
      'atropine', 'belladonna alkaloids', 'clidinium', 'dicyclomine', 'homatropine', 'hyoscyamine', 'methscopolamine', 'propantheline', 'scopolamine',
      'cyclobenzaprine', 'orphenadrine',
    ],
    // Table 7 excludes ophthalmic atropine, homatropine and scopolamine; doxepin counts above 6 mg/day.
    routes: ['systemic', 'transdermal', 'topical', 'nasal', 'inhaled', 'otic'],
    doseLimited: { doxepin: { aboveDailyMg: 6, whenUnknown: true } },
  },
  {
    id: 'cholinesterase-inhibitor', name: 'cholinesterase inhibitors', source: `${BEERS_2023}, Table 5 (anticholinergic with a cholinesterase inhibitor)`,
    names: ['cholinesterase inhibitor', 'acetylcholinesterase inhibitor', 'chei', 'achei', 'anticholinesterase'],
    ingredients: ['donepezil', 'rivastigmine', 'galantamine'],
  },
  { id: 'beta3-agonist', name: 'beta-3 adrenergic agonists', source: FDA_LABEL, ingredients: ['mirabegron', 'vibegron'] },
  {
    id: 'anticoagulant', name: 'anticoagulants', names: ['anticoagulant', 'anticoagulation', 'doac', 'noac'], source: `${FDA_LABEL}; 2023 ACC/AHA/ACCP/HRS Guideline for Atrial Fibrillation`,
    ingredients: ['apixaban', 'rivaroxaban', 'edoxaban', 'dabigatran', 'dabigatran etexilate', 'warfarin', 'heparin', 'enoxaparin', 'dalteparin', 'tinzaparin', 'fondaparinux', 'argatroban', 'bivalirudin'],
  },
  { id: 'parenteral-anticoagulant', name: 'parenteral anticoagulants', source: FDA_LABEL, ingredients: ['heparin', 'enoxaparin', 'dalteparin', 'tinzaparin', 'fondaparinux', 'argatroban', 'bivalirudin'] },
  // Bridging during warfarin interruption is therapeutic-dose LMWH (CHEST 2022 perioperative guideline); clinicians write "LMWH".
  { id: 'lmwh', name: 'low-molecular-weight heparins', names: ['lmwh', 'low molecular weight heparin', 'low-molecular-weight heparin'], source: `${FDA_LABEL}; CHEST 2022 Perioperative Management of Antithrombotic Therapy`, ingredients: ['enoxaparin', 'dalteparin'] },
  {
    id: 'antiplatelet', name: 'antiplatelet drugs', source: FDA_LABEL,
    ingredients: ['aspirin', 'clopidogrel', 'prasugrel', 'ticagrelor', 'ticlopidine', 'dipyridamole', 'cilostazol', 'vorapaxar'],
  },
  { id: 'p2y12-inhibitor', name: 'P2Y12 inhibitors', source: FDA_LABEL, ingredients: ['clopidogrel', 'prasugrel', 'ticagrelor', 'ticlopidine', 'cangrelor'] },
  {
    id: 'systemic-corticosteroid', name: 'systemic corticosteroids', names: ['systemic corticosteroid', 'systemic steroid', 'oral corticosteroid', 'oral steroid'], routes: SYSTEMIC, source: FDA_LABEL,
    ingredients: ['prednisone', 'prednisolone', 'methylprednisolone', 'dexamethasone', 'hydrocortisone', 'cortisone', 'betamethasone', 'triamcinolone', 'deflazacort'],
  },
  {
    id: 'penicillin', name: 'penicillins', names: ['penicillin', 'pcn'], routes: SYSTEMIC, source: FDA_LABEL,
    ingredients: ['amoxicillin', 'ampicillin', 'penicillin v', 'penicillin g', 'penicillin g benzathine', 'dicloxacillin', 'nafcillin', 'oxacillin', 'piperacillin'],
  },
  { id: 'cephalosporin-1', name: 'first-generation cephalosporins', routes: SYSTEMIC, source: FDA_LABEL, ingredients: ['cephalexin', 'cefazolin', 'cefadroxil', 'cephradine', 'cefalotin'] },
  { id: 'cephalosporin-2', name: 'second-generation cephalosporins', routes: SYSTEMIC, source: FDA_LABEL, ingredients: ['cefuroxime', 'cefaclor', 'cefprozil', 'cefoxitin', 'cefotetan', 'loracarbef'] },
  {
    id: 'cephalosporin-3', name: 'third-generation cephalosporins', routes: SYSTEMIC, source: FDA_LABEL,
    ingredients: ['ceftriaxone', 'cefdinir', 'cefpodoxime', 'cefixime', 'cefotaxime', 'ceftazidime', 'cefditoren', 'ceftibuten'],
  },
  { id: 'cephalosporin-4', name: 'fourth-generation cephalosporins', routes: SYSTEMIC, source: FDA_LABEL, ingredients: ['cefepime'] },
  { id: 'cephalosporin-5', name: 'fifth-generation cephalosporins', routes: SYSTEMIC, source: FDA_LABEL, ingredients: ['ceftaroline', 'ceftobiprole'] },
  { id: 'carbapenem', name: 'carbapenems', routes: SYSTEMIC, source: FDA_LABEL, ingredients: ['meropenem', 'imipenem', 'ertapenem', 'doripenem'] },
  { id: 'monobactam', name: 'monobactams', routes: SYSTEMIC, source: FDA_LABEL, ingredients: ['aztreonam'] },
  { id: 'macrolide', name: 'macrolides', names: ['macrolide'], routes: SYSTEMIC, source: FDA_LABEL, ingredients: ['azithromycin', 'clarithromycin', 'erythromycin', 'fidaxomicin'] },
  { id: 'tetracycline', name: 'tetracyclines', names: ['tetracycline'], routes: SYSTEMIC, source: FDA_LABEL, ingredients: ['doxycycline', 'minocycline', 'tetracycline', 'omadacycline', 'sarecycline', 'demeclocycline', 'tigecycline', 'eravacycline'] },
  {
    id: 'fluoroquinolone', name: 'fluoroquinolones', names: ['fluoroquinolone', 'quinolone'], routes: SYSTEMIC, source: FDA_LABEL,
    ingredients: ['ciprofloxacin', 'levofloxacin', 'moxifloxacin', 'ofloxacin', 'delafloxacin', 'gemifloxacin', 'norfloxacin'],
  },
  { id: 'sulfonamide-antibiotic', name: 'sulfonamide antibiotics', names: ['sulfa', 'sulfa drug', 'sulfonamide'], routes: SYSTEMIC, source: FDA_LABEL, ingredients: ['sulfamethoxazole', 'sulfadiazine'] },
  { id: 'aminoglycoside', name: 'aminoglycosides', routes: SYSTEMIC, source: FDA_LABEL, ingredients: ['gentamicin', 'tobramycin', 'amikacin', 'streptomycin', 'neomycin', 'plazomicin'] },
  {
    id: 'other-antibacterial', name: 'other systemic antibacterials', routes: SYSTEMIC, source: FDA_LABEL,
    ingredients: ['trimethoprim', 'nitrofurantoin', 'fosfomycin', 'clindamycin', 'metronidazole', 'tinidazole', 'vancomycin', 'linezolid', 'tedizolid',
      'daptomycin', 'rifampin', 'rifaximin', 'chloramphenicol', 'colistin', 'polymyxin b', 'methenamine', 'dalbavancin', 'oritavancin', 'telavancin'],
  },
  {
    id: 'statin', name: 'statins', names: ['statin'], source: '2018 AHA/ACC Guideline on the Management of Blood Cholesterol, Circulation 2019;139:e1082-e1143',
    ingredients: ['atorvastatin', 'rosuvastatin', 'simvastatin', 'pravastatin', 'lovastatin', 'fluvastatin', 'pitavastatin'],
  },
  { id: 'sglt2-inhibitor', name: 'SGLT2 inhibitors', names: ['sglt-2 inhibitor', 'sglt-2i', 'sglt-2', 'gliflozin'], source: FDA_LABEL, ingredients: ['empagliflozin', 'dapagliflozin', 'canagliflozin', 'ertugliflozin', 'sotagliflozin', 'bexagliflozin'] },
  { id: 'ppi', name: 'proton pump inhibitors', names: ['ppi', 'proton pump inhibitor'], source: FDA_LABEL, ingredients: ['omeprazole', 'esomeprazole', 'lansoprazole', 'dexlansoprazole', 'pantoprazole', 'rabeprazole'] },
  {
    id: 'lama', name: 'inhaled long-acting muscarinic antagonists', names: ['lama', 'long-acting muscarinic antagonist', 'long-acting antimuscarinic'], routes: INHALED, source: 'GOLD 2024 Global Strategy for COPD, chapter 3',
    ingredients: ['tiotropium', 'umeclidinium', 'aclidinium', 'glycopyrronium', 'glycopyrrolate', 'revefenacin'],
  },
  {
    id: 'laba', name: 'inhaled long-acting beta-2 agonists', names: ['laba', 'long-acting beta agonist', 'long-acting beta-2 agonist', 'long-acting β2-agonist'], routes: INHALED, source: 'GOLD 2024 Global Strategy for COPD, chapter 3; GINA 2024',
    ingredients: ['salmeterol', 'formoterol', 'arformoterol', 'vilanterol', 'olodaterol', 'indacaterol'],
  },
  {
    id: 'ics', name: 'inhaled corticosteroids', names: ['ics', 'inhaled corticosteroid', 'inhaled steroid'], routes: INHALED, source: 'GINA 2024 Global Strategy for Asthma Management and Prevention',
    ingredients: ['fluticasone', 'budesonide', 'beclomethasone', 'mometasone', 'ciclesonide', 'flunisolide'],
  },
  // Gels and patches of testosterone act systemically: no route restriction.
  { id: 'testosterone', name: 'testosterone and androgens', source: FDA_LABEL, ingredients: ['testosterone', 'methyltestosterone'] },
  {
    id: 'beta-blocker', name: 'beta blockers', names: ['beta blocker', 'betablocker', 'β-blocker'], source: FDA_LABEL,
    ingredients: ['metoprolol', 'carvedilol', 'bisoprolol', 'atenolol', 'propranolol', 'nebivolol', 'labetalol', 'nadolol'],
  },
  { id: 'loop-diuretic', name: 'loop diuretics', source: FDA_LABEL, ingredients: ['furosemide', 'bumetanide', 'torsemide', 'ethacrynic acid'] },
  { id: 'thiazide', name: 'thiazide and thiazide-like diuretics', source: FDA_LABEL, ingredients: ['hydrochlorothiazide', 'chlorthalidone', 'indapamide', 'metolazone'] },
  {
    id: 'calcium-channel-blocker', name: 'calcium channel blockers', source: FDA_LABEL,
    ingredients: ['amlodipine', 'nifedipine', 'felodipine', 'isradipine', 'nicardipine', 'diltiazem', 'verapamil'],
  },
  { id: 'glp1-agonist', name: 'GLP-1 receptor agonists', source: FDA_LABEL, ingredients: ['semaglutide', 'liraglutide', 'dulaglutide', 'exenatide', 'tirzepatide', 'lixisenatide'] },
  { id: 'dpp4-inhibitor', name: 'DPP-4 inhibitors', source: FDA_LABEL, ingredients: ['sitagliptin', 'linagliptin', 'saxagliptin', 'alogliptin'] },
  { id: 'sulfonylurea', name: 'sulfonylureas', source: FDA_LABEL, ingredients: ['glipizide', 'glyburide', 'glimepiride'] },
  { id: 'biguanide', name: 'biguanides', source: FDA_LABEL, ingredients: ['metformin'] },
  { id: 'bisphosphonate', name: 'bisphosphonates', source: FDA_LABEL, ingredients: ['alendronate', 'risedronate', 'ibandronate', 'zoledronic acid'] },
  {
    id: 'osteoporosis-therapy', name: 'osteoporosis drug therapy',
    source: 'Endocrine Society 2019 (update 2020) Pharmacological Management of Osteoporosis in Postmenopausal Women, J Clin Endocrinol Metab 2019;104:1595-1622 and 2020;105:587-594',
    ingredients: ['alendronate', 'risedronate', 'ibandronate', 'zoledronic acid', 'denosumab', 'raloxifene', 'teriparatide', 'abaloparatide', 'romosozumab'],
  },
  { id: 'xanthine-oxidase-inhibitor', name: 'xanthine oxidase inhibitors', source: FDA_LABEL, ingredients: ['allopurinol', 'febuxostat'] },
  { id: 'thyroid-hormone', name: 'thyroid hormones', source: FDA_LABEL, ingredients: ['levothyroxine', 'liothyronine'] },
  { id: 'ssri', name: 'SSRIs', source: FDA_LABEL, ingredients: ['sertraline', 'escitalopram', 'citalopram', 'fluoxetine', 'paroxetine', 'fluvoxamine'] },
  { id: 'triptan', name: 'triptans', source: FDA_LABEL, ingredients: ['sumatriptan', 'rizatriptan', 'zolmitriptan', 'eletriptan', 'naratriptan', 'almotriptan', 'frovatriptan'] },
  { id: 'non-opioid-analgesic', name: 'non-opioid, non-NSAID analgesics', source: FDA_LABEL, ingredients: ['acetaminophen'] },
];

/** Every class by id. */
export const DRUG_CLASSES: ReadonlyMap<string, DrugClass> = new Map(classes.map((c) => [c.id, c]));

/**
 * Umbrella groups of classes that rules and task configs may name like a class (e.g. any systemic antibiotic,
 * any RAAS blocker).
 */
export const CLASS_GROUPS: Readonly<Record<string, string[]>> = {
  cephalosporin: ['cephalosporin-1', 'cephalosporin-2', 'cephalosporin-3', 'cephalosporin-4', 'cephalosporin-5'],
  'beta-lactam': ['penicillin', 'cephalosporin-1', 'cephalosporin-2', 'cephalosporin-3', 'cephalosporin-4', 'cephalosporin-5', 'carbapenem', 'monobactam'],
  'systemic-antibiotic': ['penicillin', 'cephalosporin-1', 'cephalosporin-2', 'cephalosporin-3', 'cephalosporin-4', 'cephalosporin-5', 'carbapenem',
    'monobactam', 'macrolide', 'tetracycline', 'fluoroquinolone', 'sulfonamide-antibiotic', 'aminoglycoside', 'other-antibacterial'],
  'raas-blocker': ['ace-inhibitor', 'arb', 'arni', 'renin-inhibitor'],
};

/** What a clinician calls a group of classes in text. */
const GROUP_NAMES: Readonly<Record<string, string[]>> = {
  cephalosporin: ['cephalosporin'],
  'beta-lactam': ['beta-lactam', 'β-lactam'],
  'raas-blocker': ['raas', 'raas blocker', 'raas blockade', 'raas inhibitor', 'raasi', 'raas-i'],
};

/** A class id or a group id, as a task config may name it. */
export function isKnownClass(id: string): boolean {
  return DRUG_CLASSES.has(id) || id in CLASS_GROUPS;
}

/** The class ids a class-or-group id stands for. */
export function expandClass(id: string): string[] {
  return CLASS_GROUPS[id] ?? (DRUG_CLASSES.has(id) ? [id] : []);
}

/** Every ingredient name some class lists. */
export const KNOWN_INGREDIENTS: readonly string[] = [...new Set(classes.flatMap((c) => c.ingredients))];

// --- Drug recognition ------------------------------------------------------------------------------------------
// graders/lib/drugs.ts recognises a drug by any RxNorm code we hold, or by generic, brand and shorthand names in its
// text. Its vocabulary is the terminology service's, which lacks many class members (most antibiotics, the Beers
// anticholinergics, potassium salts), so the generic names the classes list are also looked for as whole words.

/** Phrases that name a drug without naming it ("potassium 20 mEq" is potassium chloride). */
const PHRASES: [RegExp, string[]][] = [
  [/\b(oral )?potassium (supplement|replacement|\d+(\.\d+)?\s*(meq|mmol))/, ['potassium chloride']],
];

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The classes' generic names as whole words, longest first ("penicillin g benzathine" before "penicillin g"). */
const NAME_PATTERNS: [RegExp, string][] = [...KNOWN_INGREDIENTS]
  .sort((a, b) => b.length - a.length)
  .map((name) => [new RegExp(`(^|[^a-z])${escapeRegExp(name)}([^a-z]|$)`), name]);

/** Generic names of the classes' members written in a text. */
function classMembersInText(text: string): string[] {
  const found: string[] = [];
  let rest = text.toLowerCase();
  for (const [pattern, name] of NAME_PATTERNS) {
    if (!pattern.test(rest)) continue;
    found.push(name);
    // Consume the match so "penicillin g benzathine" does not also count as "penicillin g".
    rest = rest.replace(pattern, '$1 $2');
  }
  for (const [pattern, names] of PHRASES) if (pattern.test(text.toLowerCase())) found.push(...names);
  return found;
}

/** Ingredient names (lower-case) mentioned in a text: generic, brand or shorthand. */
export function ingredientNamesInText(text: string): string[] {
  return [...new Set([...drugIngredientNames({ text }), ...classMembersInText(text)])];
}

/** A class name as a whole-word pattern: a space or hyphen in it may be a space, a hyphen or nothing ("beta blocker",
 * "beta-blocker", "betablocker"; "SGLT-2" and "SGLT2"), and a plural ending is allowed. */
function classNamePattern(name: string): RegExp {
  const body = name.toLowerCase().split(/[\s-]+/).map(escapeRegExp).join('[\\s-]?');
  return new RegExp(`(^|[^a-z0-9])${body}(e?s)?([^a-z0-9]|$)`);
}

const CLASS_NAME_PATTERNS: [RegExp, string][] = [
  ...classes.flatMap((c) => (c.names ?? []).map((n): [RegExp, string] => [classNamePattern(n), c.id])),
  ...Object.entries(GROUP_NAMES).flatMap(([id, names]) => names.map((n): [RegExp, string] => [classNamePattern(n), id])),
];

/** Class ids a text names in words ("penicillins", "sulfa drugs", "an SGLT2 inhibitor"); a group named gives its classes. */
export function classesNamedIn(text: string): string[] {
  const lower = text.toLowerCase();
  return [...new Set(CLASS_NAME_PATTERNS.filter(([pattern]) => pattern.test(lower)).flatMap(([, id]) => expandClass(id)))];
}

/**
 * The text mentions the drug `id`: an ingredient ("doxycycline": by generic, brand or shorthand name), or a class or
 * group of drug-classes.ts ("sglt2-inhibitor", "beta-lactam": by a member's name or by the class's own name). A
 * mention says nothing about direction: "no penicillin" mentions penicillin (graders/lib/text reads direction).
 */
export function mentionsDrug(text: string, id: string): boolean {
  if (isKnownClass(id)) {
    const wanted = expandClass(id);
    return [...classesNamedIn(text), ...classesOfIngredients(ingredientNamesInText(text))].some((c) => wanted.includes(c));
  }
  const [ingredient] = ingredientNamesInText(id);
  if (!ingredient) throw new Error(`mentionsDrug: "${id}" is neither a drug class nor a drug the vocabulary knows`);
  return ingredientNamesInText(text).includes(ingredient);
}

/**
 * A drug concept (an order's or an allergy's substance) is the drug `id`: an ingredient by any held RxNorm code or
 * name (ingredientNamesOf), or a class or group by a member or by the class's own name in its text ("penicillin VK
 * 500 mg" is a penicillin, "Sulfa drugs" a sulfonamide antibiotic).
 */
export function conceptIs(concept: CodeableConcept | undefined, id: string): boolean {
  if (isKnownClass(id)) {
    const wanted = expandClass(id);
    const names = [concept?.text, ...codingsOf(concept).map((c) => c.display)].filter((n): n is string => !!n).join(' ; ');
    return [...classesOf(concept), ...classesNamedIn(names)].some((c) => wanted.includes(c));
  }
  const [ingredient] = ingredientNamesInText(id);
  if (!ingredient) throw new Error(`conceptIs: "${id}" is neither a drug class nor a drug the vocabulary knows`);
  return ingredientNamesOf(concept).includes(ingredient);
}

/** The class or group `id` named in words in a text, as written there ("SGLT2 inhibitors", "beta-blocker"); a group
 * that holds the class ("beta-lactams" for the penicillins) or a class within a group names it too. */
export function classNamesIn(text: string, id: string): string[] {
  const wanted = expandClass(id);
  const lower = text.toLowerCase();
  const out: string[] = [];
  for (const [pattern, named] of CLASS_NAME_PATTERNS) {
    if (!expandClass(named).some((c) => wanted.includes(c))) continue;
    for (const m of lower.matchAll(new RegExp(pattern.source, 'g'))) {
      const start = m.index + m[1].length;
      out.push(text.slice(start, m.index + m[0].length - m[3].length));
    }
  }
  return [...new Set(out)];
}

/**
 * The names a text uses for any of `ids` (ingredients, or classes and groups of this table): the ingredient names
 * themselves (a class's members), every word or pair of words in the text that the drug vocabulary reads as one of
 * them ("Norvasc", "HCTZ", "Anoro Ellipta"), and a class's own name as the text writes it ("SGLT2 inhibitors"). For
 * reading a statement's direction about the drug under whatever name the writer chose.
 */
export function namesInTextFor(text: string, ids: string[]): string[] {
  // An ingredient as given and as the vocabulary names it ("dabigatran" is dabigatran etexilate).
  const asNamed = (id: string) => [id.toLowerCase(), ...ingredientNamesInText(id).slice(0, 1)];
  const wanted = [...new Set(ids.flatMap((id) => (isKnownClass(id) ? expandClass(id).flatMap((c) => DRUG_CLASSES.get(c)!.ingredients) : asNamed(id))))];
  const words = text.match(/[A-Za-z][A-Za-z0-9-]*/g) ?? [];
  const names = (phrase: string) => ingredientNamesInText(phrase).some((n) => wanted.includes(n));
  const single = [...new Set(words)].filter(names);
  // A pair counts only as a name of its own (a two-word brand), not as a one-word name plus a neighbour.
  const pairs = [...new Set(words.slice(1).map((w, i) => `${words[i]} ${w}`))].filter((p) => !p.split(' ').some(names) && names(p));
  const classWords = ids.filter(isKnownClass).flatMap((id) => classNamesIn(text, id));
  return [...new Set([...wanted, ...[...single, ...pairs].filter((p) => !wanted.includes(p.toLowerCase())), ...classWords])];
}

/**
 * Ingredient names (lower-case) of a drug concept. A RxNorm code we hold is the prescriber's exact statement and
 * wins; otherwise the names in its text and coding displays.
 */
export function ingredientNamesOf(concept: CodeableConcept | undefined): string[] {
  const coded = drugIngredientNames({ coding: (concept?.coding ?? []).map((c) => ({ system: c.system, code: c.code })) });
  if (coded.length > 0) return coded;
  const names = [concept?.text, ...codingsOf(concept).map((c) => c.display)].filter((n): n is string => !!n);
  return [...new Set([...drugIngredientNames(concept), ...names.flatMap(classMembersInText)])];
}

// --- Route and dose -----------------------------------------------------------------------------------------------

/** How the dose readers' routes (graders/lib/dose/route.ts) group for class membership. */
const ROUTE_KIND: Record<Route, RouteKind> = {
  oral: 'systemic', sublingual: 'systemic', buccal: 'systemic', subcutaneous: 'systemic', intravenous: 'systemic', intramuscular: 'systemic',
  rectal: 'systemic', inhaled: 'inhaled', nasal: 'nasal', transdermal: 'transdermal', topical: 'topical', vaginal: 'topical',
  ophthalmic: 'ophthalmic', otic: 'otic',
};

/** Product words the dose-form reader does not know (a gel, an HFA or Respimat inhaler). */
const MORE_FORM_WORDS: [RegExp, RouteKind][] = [
  [/\bhfa\b|respimat|ellipta|handihaler|diskus|\bmdi\b/, 'inhaled'],
  [/\bgel\b|\bfoam\b/, 'topical'],
];

/**
 * The route of an order: Dosage.route, else the sig text, else the dose form in the drug's names (the dose readers'
 * routeOf), else product words such as "gel". 'unknown' when nothing says.
 */
export function routeKindOf(order: MedicationRequest): RouteKind {
  const names = [order.medicationCodeableConcept?.text, ...codingsOf(order.medicationCodeableConcept).map((c) => c.display)].filter((n): n is string => !!n);
  const kinds = new Set<RouteKind>();
  for (const dosage of order.dosageInstruction?.length ? order.dosageInstruction : [undefined]) {
    for (const route of routeOf(dosage, names).routes) kinds.add(ROUTE_KIND[route]);
  }
  if (kinds.size === 1) return [...kinds][0];
  if (kinds.size > 1) return kinds.has('systemic') ? 'systemic' : 'unknown';
  const words = names.join(' ').toLowerCase();
  for (const [pattern, kind] of MORE_FORM_WORDS) if (pattern.test(words)) return kind;
  return 'unknown';
}

/**
 * Milligrams per day of an order: the dose per administration as an amount (a count of tablets times the product's
 * strength, graders/lib/dose) times administrations per day (once when not stated); undefined when not an amount.
 */
export function dailyMg(order: MedicationRequest): number | undefined {
  let total = 0;
  for (const dosage of order.dosageInstruction?.length ? order.dosageInstruction : [undefined]) {
    const mg = doseIn(dosage, 'mg', order.medicationCodeableConcept);
    if (mg === undefined) return undefined;
    total += mg * (timesPerDay(dosage) ?? 1);
  }
  return total;
}

// --- Membership -----------------------------------------------------------------------------------------------------

function routeAllowed(c: DrugClass, route: RouteKind): boolean {
  return route === 'unknown' || !c.routes || c.routes.includes(route);
}

function memberByDose(c: DrugClass, ingredient: string, mgPerDay: number | undefined): boolean {
  const limit = c.doseLimited?.[ingredient];
  if (!limit) return true;
  return mgPerDay === undefined ? limit.whenUnknown : mgPerDay > limit.aboveDailyMg;
}

/** Class ids of a set of ingredients at a route and daily dose (undefined = not known). */
export function classesOfIngredients(ingredients: string[], route: RouteKind = 'unknown', mgPerDay?: number): string[] {
  return classes.filter((c) => routeAllowed(c, route) && ingredients.some((i) => c.ingredients.includes(i) && memberByDose(c, i, mgPerDay))).map((c) => c.id);
}

/**
 * Class ids of a drug concept alone (no route or dosage known): a strength in its name ("aspirin 81 MG") serves as
 * the daily dose of a dose-limited member.
 */
export function classesOf(concept: CodeableConcept | undefined): string[] {
  return classesOfIngredients(ingredientNamesOf(concept), 'unknown', strengthIn(concept, 'mg'));
}

/** Class ids of a MedicationRequest, with its route (a topical NSAID is no systemic NSAID) and daily dose. */
export function classesOfOrder(order: MedicationRequest): string[] {
  return classesOfIngredients(ingredientNamesOf(order.medicationCodeableConcept), routeKindOf(order), dailyMg(order));
}

/** The order belongs to the class or group `id`. */
export function orderInClass(order: MedicationRequest, id: string): boolean {
  const wanted = expandClass(id);
  return classesOfOrder(order).some((c) => wanted.includes(c));
}
