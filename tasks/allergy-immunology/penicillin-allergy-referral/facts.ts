// Clinical facts of the penicillin-allergy evaluation task, shared by the grader and the reference solution as data
// only: the PEN-FAST items and cut-off, which reactions are severe, and where an allergy
// evaluation goes. Each side scores PEN-FAST and classifies the history with its own code.

export const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';
export const SNOMED = 'http://snomed.info/sct';

export const AMOXICILLIN = '723';

/**
 * PEN-FAST (Trubiano JA et al., JAMA Intern Med 2020;180:745-752): F = reaction five years ago or less (2 points);
 * A/S = anaphylaxis or angioedema, or a severe cutaneous adverse reaction (SJS/TEN, DRESS, AGEP) (2 points);
 * T = treatment required for the reaction (1 point). Below 3 is low risk (< 5 % positive testing).
 * Treatment is rarely coded: with no record of it, either answer about T is accepted.
 */
export const PEN_FAST = { recentYears: 5, recentPoints: 2, severePoints: 2, treatmentPoints: 1, lowRiskBelow: 3 };

/** Reactions that score the A/S item (SNOMED manifestation codes): anaphylaxis, angioedema, SJS, TEN, DRESS, AGEP. */
export const SEVERE_REACTIONS = ['39579001', '41291007', '73442001', '402736002', '419076005', '703330009', '238986007'];

/** Words that name a recorded manifestation in an answer (the chart's code -> what a clinician would write). */
export const REACTION_WORDS: Record<string, string[]> = {
  '126485001': ['urticaria', 'hives', 'urticarial', 'wheals'],
  '39579001': ['anaphylaxis', 'anaphylactic'],
  '41291007': ['angioedema', 'swelling'],
  '271807003': ['rash', 'exanthem', 'eruption'],
  '247472004': ['hives', 'urticaria', 'wheals'],
};

/**
 * AAAAI/ACAAI Drug Allergy Practice Parameter 2022 (Khan DA et al., J Allergy Clin Immunol 2022;150:1333-1393):
 * a low-risk history (e.g. a benign cutaneous reaction more than 5 years ago, PEN-FAST < 3) may go straight to a
 * supervised direct oral amoxicillin challenge, in clinic or by referral; a high-risk history (anaphylaxis,
 * angioedema, severe cutaneous reaction) goes to an allergist for evaluation (skin testing before any challenge).
 * Until then the label stays and no penicillin is prescribed.
 */
export const ALLERGY_SPECIALTY = [{ system: SNOMED, codes: ['408439002', '394538003'] }];
export const ALLERGY_SPECIALTY_WORDS = ['allergy', 'immunology', 'allergist'];
