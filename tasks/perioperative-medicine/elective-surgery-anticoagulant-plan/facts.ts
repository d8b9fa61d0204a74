// Clinical facts of the periprocedural anticoagulation consult, shared as data by the grader and the reference
// solution: which procedures carry a high bleeding risk, how long each anticoagulant is interrupted for a given
// bleeding risk and creatinine clearance, which indications call for heparin bridging, and the therapeutic LMWH doses.
// Each side reads the chart, computes the Cockcroft-Gault clearance and the dates with its own code.

export const LOINC = 'http://loinc.org';
export const SNOMED = 'http://snomed.info/sct';
export const CPT = 'http://www.ama-assn.org/go/cpt';
export const ICD10CM = 'http://hl7.org/fhir/sid/icd-10-cm';
export const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';

export const CREATININE = [{ system: LOINC, codes: ['2160-0', '38483-4'] }];
export const BODY_WEIGHT = [{ system: LOINC, codes: ['29463-7', '3141-9'] }];
export const INR = [{ system: LOINC, codes: ['6301-6', '34714-6'] }];

/**
 * Procedure bleeding risk (PAUSE trial, JAMA Intern Med 2019;179:1469, table of high- and low/moderate-risk
 * procedures; ACC 2017 decision pathway, Table 3): major orthopaedic surgery (hip or knee arthroplasty) is high risk;
 * laparoscopic cholecystectomy and abdominal hernia repair are low/moderate risk.
 */
export const PROCEDURE_BLEEDING_RISK: Record<string, 'high' | 'low-moderate'> = {
  '609588000': 'high', // total knee replacement
  '52734007': 'high', // total hip replacement
  '44558001': 'low-moderate', // repair of inguinal hernia
  '45595009': 'low-moderate', // laparoscopic cholecystectomy
};

/** The surgical orders the consult is about (SNOMED codes above). */
export const ELECTIVE_PROCEDURES = Object.keys(PROCEDURE_BLEEDING_RISK);

/**
 * Days without the drug before the procedure day (the last dose is taken this many days + 1 before it):
 * - warfarin: stop 5 days before (CHEST 2022 rec. 1; ACC 2017 section 5.2) - last dose on day -6;
 * - apixaban, rivaroxaban, edoxaban: 1 day for low/moderate, 2 days for high bleeding risk, at any CrCl >= 30
 *   (CHEST 2022 rec. 13-14, PAUSE);
 * - dabigatran: CrCl >= 50 mL/min 1 / 2 days; CrCl 30-49 mL/min 2 / 4 days (PAUSE; CHEST 2022 rec. 13-14; ACC 2017
 *   Table 5 gives >= 48 h / >= 96 h for CrCl 30-49).
 * A day longer is accepted (the guidelines give minimum intervals); a shorter interruption is not.
 */
export const HOLD_DAYS = {
  warfarin: { any: 5 },
  factorXa: { 'low-moderate': 1, high: 2 },
  dabigatran: { crclAtLeast: 50, normal: { 'low-moderate': 1, high: 2 }, reduced: { 'low-moderate': 2, high: 4 } },
} as const;
export const FACTOR_XA_INHIBITORS = ['apixaban', 'rivaroxaban', 'edoxaban'];
export const EXTRA_HOLD_DAYS_ACCEPTED = 1;

/**
 * Heparin bridging during warfarin interruption only for high thromboembolic risk (CHEST 2022 rec. 3-6; ACC 2017
 * Figure 3; BRIDGE trial, NEJM 2015;373:823: no bridging in AF - no fewer strokes, more bleeding): a mechanical
 * mitral valve (or a mechanical aortic valve with risk factors), AF with a stroke/TIA in the last 3 months or a
 * CHA2DS2-VASc of 7 or more, VTE within 3 months. Never for a DOAC interruption (CHEST 2022 rec. 15).
 */
export const MECHANICAL_MITRAL_VALVE = { icd10: ['Z95.2'], text: /mechanical.*mitral|mitral.*mechanical/i };
export const AF = { system: SNOMED, code: '49436004' };

/** Therapeutic-dose LMWH for bridging (CHEST 2022; enoxaparin label): 1 mg/kg every 12 h or 1.5 mg/kg once daily;
 * 1 mg/kg once daily when CrCl < 30 mL/min. Dalteparin 100 IU/kg every 12 h or 200 IU/kg daily. */
export const BRIDGING_LMWH = {
  enoxaparin: { mgPerKgPerDose: [{ perDose: 1, timesPerDay: 2 }, { perDose: 1.5, timesPerDay: 1 }], renal: { crclBelow: 30, perDose: 1, timesPerDay: 1 } },
  dalteparin: { unitsPerKgPerDose: [{ perDose: 100, timesPerDay: 2 }, { perDose: 200, timesPerDay: 1 }] },
} as const;
/** Dose tolerance: rounding to a prefilled syringe. */
export const LMWH_DOSE_TOLERANCE = 0.12;
/** A prophylactic LMWH dose (enoxaparin <= 40 mg a day) is not bridging. */
export const PROPHYLACTIC_ENOXAPARIN_MG_PER_DAY = 40;

/** The INR is checked the day before surgery on a VKA (CHEST 2022; ACC 2017 section 5.2): within 2 days before, or
 * the morning of surgery. */
export const INR_CHECK_DAYS_BEFORE = { earliest: 2, latest: 0 };

/** Cockcroft-Gault tolerance between the answer and the chart's value (rounding, actual vs ideal weight). */
export const CRCL_TOLERANCE = 0.15;
