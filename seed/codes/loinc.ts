// LOINC codes the generator emits (codes and long common names only; see loinc.org/license).
import type { CodeTable } from './types.ts';

export const LOINC: CodeTable = {
  system: 'http://loinc.org',
  title: 'LOINC',
  concepts: {
    // chemistry
    '2345-7': 'Glucose [Mass/volume] in Serum or Plasma',
    '4548-4': 'Hemoglobin A1c/Hemoglobin.total in Blood',
    '2823-3': 'Potassium [Moles/volume] in Serum or Plasma',
    '2951-2': 'Sodium [Moles/volume] in Serum or Plasma',
    '2075-0': 'Chloride [Moles/volume] in Serum or Plasma',
    '2028-9': 'Carbon dioxide, total [Moles/volume] in Serum or Plasma',
    '3094-0': 'Urea nitrogen [Mass/volume] in Serum or Plasma',
    '2160-0': 'Creatinine [Mass/volume] in Serum or Plasma',
    '33914-3': 'Glomerular filtration rate/1.73 sq M.predicted [Volume Rate/Area] in Serum or Plasma by Creatinine-based formula (MDRD)',
    '17861-6': 'Calcium [Mass/volume] in Serum or Plasma',
    '19123-9': 'Magnesium [Mass/volume] in Serum or Plasma',
    '1742-6': 'Alanine aminotransferase [Enzymatic activity/volume] in Serum or Plasma',
    '1920-8': 'Aspartate aminotransferase [Enzymatic activity/volume] in Serum or Plasma',
    '1751-7': 'Albumin [Mass/volume] in Serum or Plasma',
    '1975-2': 'Bilirubin.total [Mass/volume] in Serum or Plasma',
    '3084-1': 'Urate [Mass/volume] in Serum or Plasma',
    '14959-1': 'Microalbumin/Creatinine [Mass Ratio] in Urine',
    '33762-6': 'Natriuretic peptide.B prohormone N-Terminal [Mass/volume] in Serum or Plasma',
    '14334-7': 'Lithium [Moles/volume] in Serum or Plasma',
    '20447-9': 'HIV 1 RNA [#/volume] (viral load) in Serum or Plasma by NAA with probe detection',
    '24467-3': 'CD3+CD4+ (T4 helper) cells [#/volume] in Blood',
    // lipids
    '2093-3': 'Cholesterol [Mass/volume] in Serum or Plasma',
    '2571-8': 'Triglyceride [Mass/volume] in Serum or Plasma',
    '2085-9': 'Cholesterol in HDL [Mass/volume] in Serum or Plasma',
    '13457-7': 'Cholesterol in LDL [Mass/volume] in Serum or Plasma by calculation',
    // thyroid
    '3016-3': 'Thyrotropin [Units/volume] in Serum or Plasma',
    '3024-7': 'Thyroxine (T4) free [Mass/volume] in Serum or Plasma',
    // hematology
    '718-7': 'Hemoglobin [Mass/volume] in Blood',
    '4544-3': 'Hematocrit [Volume Fraction] of Blood by Automated count',
    '6690-2': 'Leukocytes [#/volume] in Blood by Automated count',
    '777-3': 'Platelets [#/volume] in Blood by Automated count',
    '787-2': 'MCV [Entitic volume] by Automated count',
    '2276-4': 'Ferritin [Mass/volume] in Serum or Plasma',
    '6301-6': 'INR in Platelet poor plasma by Coagulation assay',
    // panels
    '24323-8': 'Comprehensive metabolic 2000 panel - Serum or Plasma',
    '51990-0': 'Basic metabolic panel - Blood',
    '58410-2': 'CBC panel - Blood by Automated count',
    '24331-1': 'Lipid 1996 panel - Serum or Plasma',
    // vital signs (FHIR R4 vital-signs profile codes)
    '85354-9': 'Blood pressure panel with all children optional',
    '8480-6': 'Systolic blood pressure',
    '8462-4': 'Diastolic blood pressure',
    '8867-4': 'Heart rate',
    '9279-1': 'Respiratory rate',
    '8310-5': 'Body temperature',
    '29463-7': 'Body weight',
    '8302-2': 'Body height',
    '39156-5': 'Body mass index (BMI) [Ratio]',
    '59408-5': 'Oxygen saturation in Arterial blood by Pulse oximetry',
    '2708-6': 'Oxygen saturation in Arterial blood',
    // social history and surveys
    '72166-2': 'Tobacco smoking status',
    '44261-6': 'Patient Health Questionnaire 9 item (PHQ-9) total score [Reported]',
    // pulmonary function
    '19926-5': 'FEV1/FVC',
    // document types
    '11506-3': 'Progress note',
    '11488-4': 'Consult note',
    '18842-5': 'Discharge summary',
    '18748-4': 'Diagnostic imaging study',
    '34117-2': 'History and physical note',
    // imaging studies (report codes)
    '36643-5': 'XR Chest 2 Views',
    '38269-7': 'DXA Bone density',
  },
};
