// What the harm rules ask of the starting chart: CKD stage, dementia, hyperkalemia, an indication for a steroid or
// an antibiotic. Conditions are recognised by their words (code text, coding displays, or the display our code
// tables give a bare code), so SNOMED, ICD-10-CM and text-only problem lists all count.
import type { Condition } from '@medplum/fhirtypes';
import { lookupDisplay } from '../../../seed/codes/index.ts';
import { codingsOf, ICD10CM } from '../codings.ts';
import { convert } from '../../../resources/units/ucum.ts';
import type { StartingChart } from './chart.ts';

/** The words of a condition, lower-case: text, displays, and the known display of any bare code. */
export function conditionWords(c: Condition): string {
  const words = [c.code?.text];
  for (const coding of codingsOf(c.code)) words.push(coding.display ?? (coding.system && coding.code ? lookupDisplay(coding.system, coding.code) : undefined));
  return words.filter(Boolean).join(' ; ').toLowerCase();
}

const icd10 = (c: Condition, prefixes: RegExp): boolean => codingsOf(c.code).some((x) => x.system === ICD10CM && prefixes.test(x.code ?? ''));

/** `Condition/id "words"`, or `the consult's diagnosis "words"` for one the task states (HarmOptions.indications). */
const describe = (c: Condition): string => `${c.id ? `Condition/${c.id}` : "the consult's diagnosis"} "${conditionWords(c).split(' ; ')[0] || '(no text)'}"`;

// --- CKD ---------------------------------------------------------------------------------------------------------
const CKD_WORDS = /chronic kidney disease|\bckd\b|chronic renal (failure|insufficiency|disease)|diabetic (nephropathy|kidney disease)|kidney failure|end[- ]stage (renal|kidney)|\besrd\b|\beskd\b/;
const STAGE_3_PLUS = /stage\s*(3a|3b|3|4|5|iii|iv|v)\b|\bg\s?(3a|3b|3|4|5)\b|end[- ]stage|\besrd\b|\beskd\b|kidney failure|dialysis/;

export interface Finding {
  found: boolean;
  /** What showed it, for the evidence. */
  evidence: string[];
}

/** eGFR in mL/min/1.73 m2 (numerically the same in every unit labs use for it). */
function egfrValue(chart: StartingChart): number | undefined {
  return chart.egfr?.value;
}

/** CKD G3 or worse: the latest eGFR < 60, or a CKD stage 3-5 condition (KDIGO 2024 GFR categories). */
export function ckdStage3Plus(chart: StartingChart): Finding {
  const evidence: string[] = [];
  const egfr = egfrValue(chart);
  if (egfr !== undefined && egfr < 60) evidence.push(`latest eGFR ${egfr} (${chart.egfr!.ref}) < 60`);
  for (const c of chart.conditions) {
    const words = conditionWords(c);
    if ((CKD_WORDS.test(words) && STAGE_3_PLUS.test(words)) || icd10(c, /^N18\.(3|4|5|6)/)) evidence.push(`${describe(c)} (CKD G3-G5)`);
  }
  return { found: evidence.length > 0, evidence };
}

/** Any CKD: a CKD condition, or the latest eGFR < 60. */
export function anyCkd(chart: StartingChart): Finding {
  const stage3 = ckdStage3Plus(chart);
  const evidence = [...stage3.evidence];
  for (const c of chart.conditions) {
    if (evidence.some((e) => e.startsWith(`${describe(c)}`))) continue;
    if (CKD_WORDS.test(conditionWords(c)) || icd10(c, /^(N18|E11\.2|E10\.2|I12|I13)/)) evidence.push(describe(c));
  }
  return { found: evidence.length > 0, evidence };
}

/** Hyperkalemia by KDIGO 2024 thresholds: the latest potassium >= 5.5 mmol/L, or >= 5.0 with CKD. */
export function hyperkalemia(chart: StartingChart): Finding {
  const k = chart.potassium;
  if (!k) return { found: false, evidence: ['no potassium result'] };
  const value = convert(k.value, k.unit || 'mmol/L', 'mmol/L') ?? k.value;
  if (value >= 5.5) return { found: true, evidence: [`latest potassium ${k.value} ${k.unit} (${k.ref}) >= 5.5`] };
  const ckd = anyCkd(chart);
  if (value >= 5.0 && ckd.found) return { found: true, evidence: [`latest potassium ${k.value} ${k.unit} (${k.ref}) >= 5.0 with CKD (${ckd.evidence[0]})`] };
  return { found: false, evidence: [`latest potassium ${k.value} ${k.unit} (${k.ref})`] };
}

// --- Dementia ----------------------------------------------------------------------------------------------------
const DEMENTIA_WORDS = /dementia|alzheimer|lewy bod|frontotemporal|cognitive (impairment|decline|disorder)|neurocognitive|delirium/;

/** Dementia, cognitive impairment or delirium (Beers 2023 Table 3). */
export function dementia(chart: StartingChart): Finding {
  const evidence = chart.conditions.filter((c) => DEMENTIA_WORDS.test(conditionWords(c)) || icd10(c, /^(F0[0-3]|F05|G30|G31\.(0|1|83|84))/)).map(describe);
  return { found: evidence.length > 0, evidence };
}

// --- Indications ---------------------------------------------------------------------------------------------------
/**
 * Conditions for which a systemic corticosteroid is a recognised treatment (inflammatory, autoimmune, allergic,
 * obstructive airway, adrenal, oncologic and a few acute ones), from the FDA labels' indications for prednisone,
 * methylprednisolone and dexamethasone.
 */
const STEROID_INDICATIONS = new RegExp([
  'asthma', 'chronic obstructive', '\\bcopd\\b', 'emphysema', 'rheumatoid', 'lupus', 'polymyalgia', 'arteritis', 'vasculitis', 'gout', 'crohn',
  'ulcerative colitis', 'inflammatory bowel', 'adrenal insufficiency', 'addison', 'hypopituitar', 'congenital adrenal', 'sarcoid', 'multiple sclerosis',
  'nephrotic', 'glomerulonephritis', 'iga nephropathy', 'minimal change', 'dermatitis', 'eczema', 'urticaria', 'angioedema', 'anaphyla', 'allergic',
  "bell'?s palsy", 'croup', 'pneumocystis', 'myasthenia', 'psoria', 'ankylosing', 'spondylo?arthritis', 'autoimmune', 'interstitial lung',
  'pulmonary fibrosis', 'pemphig', 'uveitis', 'scleritis', 'thrombocytopenic purpura', 'hemolytic anemia', 'lymphoma', 'leukemia', 'myeloma',
  'malignan', 'cancer', 'carcinoma', 'metasta', 'cerebral edema', 'spinal cord compression', 'chemotherapy', 'transplant', 'graft', 'pericarditis',
  'myositis', 'sj[oö]gren', 'scleroderma', 'systemic sclerosis', 'thyroiditis', 'thyroid eye', 'pharyngitis', 'tonsillitis', 'rhinitis',
  'covid', 'pneumonia', 'meningitis', 'exacerbation', 'flare',
].join('|'));

/** Conditions treated with systemic antibiotics (bacterial infections, and the standing prophylaxis indications). */
const ANTIBIOTIC_INDICATIONS = new RegExp([
  'bacterial', 'infect', 'sepsis', 'septic', 'pneumonia', 'sinusitis', 'cellulitis', 'erysipelas', 'impetigo', 'abscess', 'cystitis',
  'pyelonephritis', 'urinary tract', 'prostatitis', 'otitis', 'pharyngitis', 'tonsillitis', 'strep', 'osteomyelitis', 'endocarditis',
  'meningitis', 'diverticulitis', 'cholangitis', 'cholecystitis', 'appendicitis', 'peritonitis', '\\blyme', 'syphilis', 'gonorrh', 'chlamydia',
  'tubercul', 'helicobacter', 'h\\.? ?pylori', 'clostridi', 'c\\.? ?diff', 'vaginosis', '\\bacne', 'rosacea', 'asplenia',
  '(copd|chronic obstructive|bronchiectasis).*exacerbation', 'exacerbation.*(copd|chronic obstructive|bronchiectasis)',
  'splenectomy', 'rheumatic fever', 'pneumocystis', '\\bhiv\\b', 'human immunodeficiency', 'wound', '\\bbite', 'mastitis', 'epididymitis',
  'urethritis', 'pelvic inflammatory', 'endometritis', 'chorioamnionitis', 'keratitis', 'conjunctivitis', 'whipple', 'nocardia', 'actinomyc',
].join('|'));
/**
 * Infections antibiotics do not treat: viral ones, and acute bronchitis and the common cold / URI in adults
 * (ACP/CDC High-Value Care, Harris AM et al., Ann Intern Med 2016;164:425-434).
 */
const NOT_ANTIBIOTIC_INDICATIONS = /\bviral\b|\bvirus\b|common cold|upper respiratory|\buri\b|influenza|covid|bronchiolitis|acute bronchitis/;
/** ... unless the same words say bacterial, or name HIV (opportunistic-infection prophylaxis). */
const STILL_ANTIBIOTIC_INDICATIONS = /bacterial|human immunodeficiency|\bhiv\b/;

function indicated(chart: StartingChart, words: RegExp, icd: RegExp, not?: RegExp, unlessAlso?: RegExp): Finding {
  const evidence = chart.conditions.filter((c) => {
    const w = conditionWords(c);
    if (not && not.test(w) && !(unlessAlso && unlessAlso.test(w))) return false;
    return words.test(w) || icd10(c, icd);
  }).map(describe);
  return { found: evidence.length > 0, evidence };
}

/** An active condition for which a systemic corticosteroid is a recognised treatment. */
export function steroidIndication(chart: StartingChart): Finding {
  return indicated(chart, STEROID_INDICATIONS, /^(J4[4-6]|M0[5-6]|M3[0-5]|M10|M1A|K5[0-1]|E27|D86|G35|N0[0-5]|L2[0-3]|L50|T78|C|D4[5-7])/);
}

/** An active condition that systemic antibiotics treat (a bacterial infection or a prophylaxis indication). */
export function antibioticIndication(chart: StartingChart): Finding {
  return indicated(chart, ANTIBIOTIC_INDICATIONS, /^(A[0-4]|A5[0-9]|J01|J02|J03|J1[3-8]|J44\.[01]|L0[0-8]|N1[0-2]|N30|N39\.0|N41|H6[5-7]|K35|K57|K65|K81|M86|I33|G0[0-4]|L70|L71|Z90\.81|D73\.0|B20)/, NOT_ANTIBIOTIC_INDICATIONS, STILL_ANTIBIOTIC_INDICATIONS);
}
