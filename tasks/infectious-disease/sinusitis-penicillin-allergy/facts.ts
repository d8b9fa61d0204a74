// Clinical facts of the sinusitis-with-amoxicillin-allergy task, shared by the grader and the reference solution as
// data only: the adult regimens the guidelines accept, which allergy histories and conditions rule each out, and
// the penicillin class. Each side decides what fits a chart with its own code.

export const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';
export const SNOMED = 'http://snomed.info/sct';
export const ICD10CM = 'http://hl7.org/fhir/sid/icd-10-cm';
export const LOINC = 'http://loinc.org';

export const AMOXICILLIN = '723';

export type DrugClass = 'tetracycline' | 'fluoroquinolone' | 'cephalosporin' | 'lincosamide';

export interface Regimen {
  /** The ingredient, as graders/lib/drug-classes.ts names it (any code, brand or name of it is recognised there). */
  drug: string;
  drugClass: DrugClass;
  /** Accepted adult oral doses: mg per dose at so many doses a day. */
  doses: { mg: number; timesPerDay: number }[];
  /** Same or similar R1 side chain as amoxicillin (aminocephalosporins): cross-reactive after an immediate reaction. */
  amoxicillinSideChain?: boolean;
  /** Only as an add-on to a cephalosporin, not alone. */
  addOnOnly?: boolean;
}

/**
 * IDSA 2012 acute bacterial rhinosinusitis guideline (Chow AW et al., Clin Infect Dis 2012;54:e72-e112), adults with
 * penicillin allergy: doxycycline 100 mg twice daily or 200 mg daily, or a respiratory fluoroquinolone (levofloxacin
 * 500 mg daily - 750 mg daily is the short-course regimen - moxifloxacin 400 mg daily); for a non-type I (low-risk)
 * history an oral cephalosporin (cefpodoxime or cefixime, with or without clindamycin; cefuroxime and cefdinir are
 * the other sinusitis cephalosporins, AAO-HNS). Macrolides and trimethoprim-sulfamethoxazole are not recommended
 * (pneumococcal resistance). AAAAI/ACAAI 2022 drug allergy parameter: after a non-anaphylactic penicillin reaction
 * any cephalosporin may be given; after anaphylaxis, a cephalosporin with a dissimilar side chain may be given
 * without testing - never one sharing amoxicillin's (cefadroxil, cefprozil) or ampicillin's (cephalexin, cefaclor).
 */
export const REGIMENS: Regimen[] = [
  { drug: 'doxycycline', drugClass: 'tetracycline', doses: [{ mg: 100, timesPerDay: 2 }, { mg: 200, timesPerDay: 1 }] },
  { drug: 'levofloxacin', drugClass: 'fluoroquinolone', doses: [{ mg: 500, timesPerDay: 1 }, { mg: 750, timesPerDay: 1 }] },
  { drug: 'moxifloxacin', drugClass: 'fluoroquinolone', doses: [{ mg: 400, timesPerDay: 1 }] },
  { drug: 'cefpodoxime', drugClass: 'cephalosporin', doses: [{ mg: 200, timesPerDay: 2 }, { mg: 100, timesPerDay: 2 }] },
  { drug: 'cefuroxime', drugClass: 'cephalosporin', doses: [{ mg: 250, timesPerDay: 2 }, { mg: 500, timesPerDay: 2 }] },
  { drug: 'cefdinir', drugClass: 'cephalosporin', doses: [{ mg: 300, timesPerDay: 2 }, { mg: 600, timesPerDay: 1 }] },
  { drug: 'cefixime', drugClass: 'cephalosporin', doses: [{ mg: 400, timesPerDay: 1 }, { mg: 200, timesPerDay: 2 }] },
  { drug: 'cefprozil', drugClass: 'cephalosporin', doses: [{ mg: 250, timesPerDay: 2 }, { mg: 500, timesPerDay: 2 }], amoxicillinSideChain: true },
  { drug: 'clindamycin', drugClass: 'lincosamide', doses: [{ mg: 300, timesPerDay: 3 }, { mg: 300, timesPerDay: 4 }, { mg: 150, timesPerDay: 4 }, { mg: 450, timesPerDay: 3 }], addOnOnly: true },
];

/** Cephalosporins sharing or resembling amoxicillin's/ampicillin's side chain (not sinusitis regimens, but to be
 * recognised as cross-reactive when ordered after anaphylaxis): ingredient names. */
export const AMINOCEPHALOSPORINS = ['cefadroxil', 'cephalexin', 'cefaclor', 'cefprozil'];

/** Reactions that make a penicillin history high risk (immediate, severe): anaphylaxis, angioedema, SJS/TEN, DRESS. */
export const SEVERE_REACTIONS = ['39579001', '41291007', '73442001', '402736002', '419076005', '703330009'];

/**
 * Pregnancy rules out doxycycline (tetracyclines: fetal tooth and bone effects, contraindicated after the first
 * trimester and avoided throughout) and fluoroquinolones (avoided in pregnancy when alternatives exist): a
 * cephalosporin is the choice after a low-risk penicillin history.
 */
export const PREGNANCY = { snomed: ['77386006', '72892002'], icd10Prefixes: ['Z33.1', 'Z34', 'O09'] };
export const EXCLUDED_IN_PREGNANCY: DrugClass[] = ['tetracycline', 'fluoroquinolone'];

/** eGFR at or above which the listed doses need no renal adjustment (levofloxacin is reduced below 50 mL/min). */
export const EGFR = { codes: ['33914-3', '62238-1', '48642-3', '48643-1', '98979-8'], noAdjustmentAtLeast: 50 };
