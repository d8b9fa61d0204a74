// Order intent groups: the clinical intent of an order ("recheck potassium", "screening mammogram") as data, with
// every code that satisfies it across LOINC, SNOMED CT, CPT, HCPCS and the seed's local flowsheet codes, plus text
// patterns for orders that carry only text. A grader asks "is this order a potassium measurement?", never "is its
// code 2823-3?", so an agent that orders a BMP, a renal function panel or K in whole blood is judged on what it
// ordered, not on which of the equivalent codes it picked.
//
// How an order is judged (matchOrderGroup):
//   1. any coding in the group's code sets -> matches;
//   2. a specific coding (a known system, not a generic "laboratory procedure"/"referral" concept) outside the group
//      -> does not match by text: the code is what the lab or radiology department acts on, so a sodium order whose
//      display says "potassium" is a sodium order;
//   3. otherwise (text only, generic or unknown codings) the text of code.text and the coding displays must match the
//      group's pattern and not its exclusion (a diagnostic mammogram is not a screening mammogram);
//   4. groups with a `referral` rule also accept a referral to that specialty whose reason says the intent (a GI
//      referral for screening colonoscopy is a colorectal screening order; a GI referral for GERD is not).
// Category (laboratory / imaging / procedure) is not part of a group: the code defines the order.
//
// Codes were checked against the LOINC, HEDIS and eCQM (CMS125, CMS130, CMS22) value sets, the HL7 PDDI-CDS potassium
// and renal value sets, and the CPT/HCPCS code descriptors; a code we could not confirm is left out (the text
// pattern still catches a text-only order for it).
import type { CodeableConcept, ServiceRequest } from '@medplum/fhirtypes';
import { FLOWSHEET } from '../../seed/codes/flowsheet.ts';
import { codingsOf, LOINC, SNOMED, type CodeSet } from './codings.ts';

export const CPT = 'http://www.ama-assn.org/go/cpt';
export const HCPCS = 'https://www.cms.gov/Medicare/Coding/HCPCSReleaseCodeSets';
/** The seed's local flowsheet codes (K, CREAT, A1C ...), which agents may also use to order. */
export const FLOWSHEET_SYSTEM = FLOWSHEET.system;

/** Systems whose codes identify a test or procedure: a coding from one of these outside a group is a different order. */
const SPECIFIC_SYSTEMS = new Set([LOINC, SNOMED, CPT, HCPCS, FLOWSHEET_SYSTEM]);

/** SNOMED concepts that say only what kind of order it is (they are categories used as codes), not which one. */
const GENERIC_SNOMED = new Set([
  '108252007', // Laboratory procedure
  '363679005', // Imaging
  '387713003', // Surgical procedure
  '386053000', // Evaluation procedure
  '3457005', // Patient referral
  '71388002', // Procedure
]);

/** How a referral ServiceRequest is recognised (the same SNOMED codes SERVICE_CATEGORIES.referral lists). */
const REFERRAL_CODES: CodeSet = { system: SNOMED, codes: ['386053000', '3457005'] };

export interface ReferralRule {
  /** Specialty codes for performerType (e.g. SNOMED 394584008 Gastroenterology) ... */
  specialty: CodeSet[];
  /** ... or words naming it in performerType / performer / code text. */
  specialtyText: RegExp;
  /** The referral's reason, code text or note must say the intent (e.g. screening colonoscopy). */
  reasonText: RegExp;
}

export interface OrderGroup {
  id: string;
  /** What the group means, for evidence ("potassium measurement (K, or a panel that reports it)"). */
  label: string;
  codes: CodeSet[];
  /** Text of a text-only order (code.text, coding displays) that states this intent. */
  text: RegExp;
  /** Text that disqualifies an order the pattern would otherwise accept (potassium chloride, diagnostic mammogram). */
  notText?: RegExp;
  referral?: ReferralRule;
  /** The guideline or value set the code list follows. */
  source: string;
}

const loinc = (...codes: string[]): CodeSet => ({ system: LOINC, codes });
const snomed = (...codes: string[]): CodeSet => ({ system: SNOMED, codes });
const cpt = (...codes: string[]): CodeSet => ({ system: CPT, codes });
const hcpcs = (...codes: string[]): CodeSet => ({ system: HCPCS, codes });
const flowsheet = (...codes: string[]): CodeSet => ({ system: FLOWSHEET_SYSTEM, codes });

/** Panels that report potassium and creatinine: BMP (1998, 2000, blood), CMP (1998, 2000), renal function panel. */
const METABOLIC_PANELS = ['24320-4', '24321-2', '51990-0', '24322-0', '24323-8', '24362-6'];
/** CPT: basic metabolic panel, comprehensive metabolic panel, renal function panel. */
const METABOLIC_PANELS_CPT = ['80048', '80053', '80069'];
const PANEL_TEXT = String.raw`\bbmp\b|basic metabolic|\bchem[\s-]?(7|8)\b|\bsma[\s-]?7\b|\bcmp\b|comprehensive metabolic|renal (function )?panel|kidney function (panel|test)|\brft\b|\bkft\b`;

const POTASSIUM: OrderGroup = {
  id: 'potassium',
  label: 'potassium measurement (serum, plasma or blood K, or a BMP/CMP/renal/electrolyte panel that reports it)',
  codes: [
    loinc(
      '2823-3', // Potassium [Moles/volume] in Serum or Plasma
      '6298-4', // Potassium [Moles/volume] in Blood
      '77142-8', // Potassium [Moles/volume] in Serum, Plasma or Blood
      '22760-3', // Potassium [Mass/volume] in Serum or Plasma
      '75940-7', // Potassium [Mass/volume] in Blood
      '39789-3', // Potassium [Moles/volume] in Venous blood
      '32713-0', // Potassium [Moles/volume] in Arterial blood
      '39790-1', // Potassium [Moles/volume] in Capillary blood
      '41656-0', // Potassium [Moles/volume] in Mixed venous blood
      '51618-7', // Potassium [Moles/volume] in Serum or Plasma --pre dialysis
      '24326-1', // Electrolytes 1998 panel - Serum or Plasma
      '55231-5', // Electrolytes panel - Blood
      ...METABOLIC_PANELS,
    ),
    cpt('84132', '80051', ...METABOLIC_PANELS_CPT), // potassium; electrolyte panel; BMP, CMP, renal panel
    flowsheet('K'),
  ],
  text: new RegExp(String.raw`\bpotassium\b|\bserum k\b|\bk\+|\belectrolytes?\b|\blytes\b|` + PANEL_TEXT, 'i'),
  // Potassium salts and binders are drugs, urine and red-cell potassium are other specimens.
  notText: /chloride|citrate|bicarbonate|gluconate|supplement|binder|replace|patiromer|zirconium|urine|urinary|red (blood )?cell|\brbc\b/i,
  source: 'HL7 PDDI-CDS serum potassium value set (HEDIS); LOINC panels 24320-4/24321-2/51990-0/24323-8/24362-6; KDIGO 2024 CKD (monitor K after RAAS changes)',
};

const RENAL_FUNCTION: OrderGroup = {
  id: 'renal-function',
  label: 'renal function (creatinine, eGFR, or a BMP/CMP/renal panel that reports them)',
  codes: [
    loinc(
      '2160-0', // Creatinine [Mass/volume] in Serum or Plasma
      '38483-4', // Creatinine [Mass/volume] in Blood
      '14682-9', // Creatinine [Moles/volume] in Serum or Plasma
      '59826-8', // Creatinine [Moles/volume] in Blood
      '77140-2', // Creatinine [Moles/volume] in Serum, Plasma or Blood
      '33914-3', // eGFR (MDRD) in Serum or Plasma
      '62238-1', // eGFR (CKD-EPI) in Serum, Plasma or Blood
      '98979-8', // eGFR (CKD-EPI 2021) in Serum, Plasma or Blood
      '48642-3', '48643-1', '50044-7', // eGFR (MDRD) among non-blacks / blacks / females
      ...METABOLIC_PANELS,
    ),
    cpt('82565', ...METABOLIC_PANELS_CPT), // creatinine, blood; BMP, CMP, renal panel
    flowsheet('CREAT', 'EGFR'),
  ],
  text: new RegExp(String.raw`creatinine|\be?gfr\b|glomerular filtration|` + PANEL_TEXT, 'i'),
  // A urine albumin/creatinine ratio or a urine creatinine is a different test.
  notText: /albumin|microalb|\bu?acr\b|urine|urinary|clearance/i,
  source: 'eCQM Creatinine Lab Test value set (2.16.840.1.113883.3.666.5.2363); HL7 PDDI-CDS renal function value set; KDIGO 2024 CKD',
};

const HBA1C: OrderGroup = {
  id: 'hba1c',
  label: 'hemoglobin A1c',
  codes: [
    loinc('4548-4', '17855-8', '17856-6', '4549-2', '96595-4'),
    cpt('83036'),
    flowsheet('A1C'),
  ],
  text: /\ba1c\b|hba1c|h(a)?emoglobin a1c|glycated h(a)?emoglobin|glycosylated h(a)?emoglobin/i,
  source: 'eCQM HbA1c Laboratory Test value set (2.16.840.1.113883.3.464.1003.198.12.1013); ADA Standards of Care 2024 s6',
};

const LIPIDS: OrderGroup = {
  id: 'lipid-panel',
  label: 'lipid panel or LDL cholesterol',
  codes: [
    loinc(
      '24331-1', // Lipid 1996 panel - Serum or Plasma
      '57698-3', // Lipid panel with direct LDL - Serum or Plasma
      '13457-7', '18262-6', '2089-1', '96259-7', // LDL: calculated, direct, unspecified, Martin-Hopkins
    ),
    cpt('80061', '83721'), // lipid panel; LDL direct
    flowsheet('LDL'),
  ],
  text: /lipid|\bldl\b|cholesterol/i,
  notText: /lipoprotein ?\(a\)|\blp ?\(a\)/i,
  source: 'eCQM LDL Cholesterol value set (2.16.840.1.113883.3.526.3.1573); 2018 AHA/ACC cholesterol guideline',
};

const TSH: OrderGroup = {
  id: 'tsh',
  label: 'TSH',
  codes: [loinc('3016-3'), cpt('84443'), flowsheet('TSH')],
  text: /\btsh\b|thyrotropin|thyroid[\s-]stimulating hormone/i,
  source: 'LOINC 3016-3 Thyrotropin [Units/volume] in Serum or Plasma; ATA hypothyroidism guideline 2014',
};

const URATE: OrderGroup = {
  id: 'urate',
  label: 'serum urate (uric acid)',
  codes: [
    loinc('3084-1', '14933-6'), // Urate [Mass/volume], [Moles/volume] in Serum or Plasma
    cpt('84550'), // uric acid; blood
    flowsheet('URIC'),
  ],
  text: /\burate\b|uric acid/i,
  notText: /urine|urinary/i,
  source: '2020 ACR gout guideline (treat-to-target: titrate urate-lowering therapy to serum urate < 6 mg/dL)',
};

const CBC: OrderGroup = {
  id: 'cbc',
  label: 'complete blood count',
  codes: [
    loinc('58410-2', '57021-8', '57782-5', '24317-0'), // CBC; with auto diff; with manual diff; hemogram + platelets
    cpt('85025', '85027'),
  ],
  text: /\bcbc\b|complete blood count|full blood count|\bfbc\b|h(a)?emogram/i,
  source: 'eCQM Laboratory Tests for Hypertension value set (CBC panels)',
};

const UACR: OrderGroup = {
  id: 'urine-albumin-creatinine',
  label: 'urine albumin/creatinine ratio',
  codes: [
    loinc('14959-1', '9318-7', '32294-1'), // microalbumin/creatinine mass ratio; albumin/creatinine mass ratio; ratio
    cpt('82043'), // albumin, urine, quantitative
    flowsheet('UACR'),
  ],
  text: /albumin\s*(\/|to|-|:)?\s*creatinine|\bu?acr\b|microalbumin/i,
  source: 'KDIGO 2024 CKD evaluation (UACR)',
};

const SCREENING_MAMMOGRAPHY: OrderGroup = {
  id: 'screening-mammography',
  label: 'screening mammogram (2D or tomosynthesis)',
  codes: [
    loinc(
      '24606-6', // MG Breast Screening
      '26175-0', '26176-8', '26177-6', // MG Breast - bilateral / left / right Screening
      '36625-2', '36626-0', '36627-8', // MG Breast Views (unspecified purpose)
      '72142-3', // DBT Breast - bilateral screening
    ),
    cpt('77067', '77063'), // screening mammography bilateral; screening digital breast tomosynthesis
    hcpcs('G0202'), // screening mammography (digital)
    snomed('24623002', '71651007', '43204002'), // screening mammography; mammography; mammography of bilateral breasts
  ],
  text: /mammo|breast tomosynthesis|\bdbt\b/i,
  // Diagnostic work-up (diagnostic mammogram, breast ultrasound/MRI, biopsy) is not screening.
  notText: /diagnostic|symptomatic|ultraso|sonogra|\bus\b|\bmri\b|biopsy|guidance|aspiration/i,
  source: 'USPSTF 2024 breast cancer screening (biennial mammography 40-74); LOINC MG Breast Screening; CPT 77067/77063; HCPCS G0202',
};

const COLORECTAL_SCREENING: OrderGroup = {
  id: 'colorectal-screening',
  label: 'colorectal cancer screening (FIT, gFOBT, FIT-DNA, colonoscopy, CT colonography, flexible sigmoidoscopy, or a GI referral for screening colonoscopy)',
  codes: [
    loinc(
      // eCQM Fecal Occult Blood Test (FOBT) value set (2.16.840.1.113883.3.464.1003.198.12.1011)
      '12503-9', '12504-7', '14563-1', '14564-9', '14565-6', '2335-8', '27396-1', '27401-9', '27925-7', '27926-5',
      '29771-3', '56490-6', '56491-4', '57905-2', '58453-2', '80372-6',
      '77353-1', '77354-9', // sDNA FIT (multitarget stool DNA)
      '60515-4', '79069-1', '79071-7', '79101-2', // CT colon and rectum (colonography), screening or air contrast
    ),
    cpt(
      '45378', // colonoscopy, flexible, diagnostic (the base code screening colonoscopies are ordered under)
      '45330', // sigmoidoscopy, flexible
      '74263', // CT colonography, screening
      '82270', // occult blood, feces, for colorectal neoplasm screening (gFOBT)
      '82274', // occult blood by fecal hemoglobin immunoassay (FIT)
      '81528', // multitarget stool DNA + fecal hemoglobin (FIT-DNA)
    ),
    hcpcs('G0121', 'G0105', 'G0104', 'G0328'), // screening colonoscopy (average, high risk); screening flex sig; FIT
    snomed('73761001', '444783004', '367535003', '235150006', '44441009'), // colonoscopy; screening; fiberoptic; total; flex sig
  ],
  text: /colonoscopy|\bg?i?fobt\b|\bfit\b|fecal immunochemical|faecal immunochemical|occult blood|cologuard|stool dna|\bmt-?sdna\b|colonography|sigmoidoscopy/i,
  referral: {
    specialty: [snomed('394584008')], // Gastroenterology
    specialtyText: /gastro|\bgi\b|digestive|endoscopy/i,
    reasonText: /colonoscopy|colorectal (cancer )?screening|colon cancer screening|\bcrc\b/i,
  },
  source: 'USPSTF 2021 colorectal cancer screening (45-75; stool tests, colonoscopy, CT colonography, flexible sigmoidoscopy); eCQM CMS130 value sets',
};

const DXA: OrderGroup = {
  id: 'dxa',
  label: 'bone density by DXA',
  codes: [
    loinc('38269-7'), // DXA Bone density
    cpt('77080', '77081', '77085'), // DXA axial; appendicular; axial with vertebral fracture assessment
    snomed('312681000'), // Bone density scan
  ],
  text: /\bdxa\b|\bdexa\b|bone (mineral )?density|\bbmd\b|densitometry/i,
  notText: /heel|calcane|quantitative ultrasound|\bqus\b/i,
  source: 'USPSTF 2025 osteoporosis screening (central DXA); CPT 77080',
};

const SPIROMETRY: OrderGroup = {
  id: 'spirometry',
  label: 'spirometry / pulmonary function testing',
  codes: [
    loinc('81458-2', '19926-5'), // pulmonary function test panel; FEV1/FVC
    cpt('94010', '94060'), // spirometry; before and after bronchodilator
    snomed('127783003', '23426006'), // spirometry; measurement of respiratory function
  ],
  text: /spirometr|pulmonary function|\bpfts?\b|lung function|\bfev1\b/i,
  source: 'GINA 2024 / GOLD 2024 (spirometry to confirm and monitor)',
};

const ECG: OrderGroup = {
  id: 'ecg',
  label: '12-lead ECG',
  codes: [
    loinc('11524-6', '34534-8'), // EKG study; 12 lead EKG panel
    cpt('93000', '93005', '93010'),
    snomed('29303009', '164847006'), // electrocardiographic procedure; 12 lead ECG
  ],
  text: /\becg\b|\bekg\b|electrocardiogra/i,
  notText: /stress|exercise|holter|ambulatory|event monitor/i,
  source: 'LOINC 34534-8 12 lead EKG panel; CPT 93000',
};

const ECHOCARDIOGRAM: OrderGroup = {
  id: 'echocardiogram',
  label: 'echocardiogram',
  codes: [
    loinc('34552-0'), // 2D echocardiogram panel
    cpt('93306', '93307', '93308'), // transthoracic echocardiography
    snomed('40701008', '433236007'), // echocardiography; transthoracic echocardiography
  ],
  text: /echocardiogra|\becho\b|\btte\b|transthoracic/i,
  notText: /stress|exercise|dobutamine/i,
  source: '2022 AHA/ACC/HFSA heart failure guideline (TTE to assess LVEF)',
};

const URINALYSIS: OrderGroup = {
  id: 'urinalysis',
  label: 'urinalysis',
  codes: [
    loinc('24356-8', '24357-6'), // urinalysis complete panel; macro (dipstick) panel
    cpt('81000', '81001', '81002', '81003'),
    snomed('27171005'), // urinalysis
  ],
  text: /urinalysis|\bu\/?a\b|urine dipstick|urine analysis/i,
  notText: /culture|albumin|microalb/i,
  source: 'eCQM Laboratory Tests for Hypertension value set (urinalysis panels)',
};

const INR: OrderGroup = {
  id: 'inr',
  label: 'prothrombin time / INR',
  codes: [
    loinc('6301-6', '34714-6', '46418-0', '5902-2'), // INR in PPP; INR in blood; INR point of care; prothrombin time
    cpt('85610'), // prothrombin time
    flowsheet('INR'),
  ],
  text: /\binr\b|prothrombin time|\bpt\s*\/\s*inr\b|\bpt\b.*\binr\b|international normali[sz]ed ratio/i,
  notText: /\bptt\b|partial thromboplastin/i,
  source: 'ACC 2017 Expert Consensus Decision Pathway for Periprocedural Management of Anticoagulation (INR before a procedure on a VKA); LOINC 6301-6; CPT 85610',
};

const CHEST_CT: OrderGroup = {
  id: 'chest-ct',
  label: 'CT of the chest (diagnostic or low-dose)',
  codes: [
    loinc('24627-2', '29252-4'), // CT Chest; CT Chest W/O contrast
    cpt('71250', '71260', '71270', '71271'), // CT thorax without, with, without and with contrast; low-dose CT for lung cancer screening
    snomed('169069000'), // CT of chest
  ],
  text: /\bct\b.*\b(chest|thorax|thoracic|lung)|(chest|thorax|thoracic|lung).*\bct\b|computed tomography.*(chest|thora|lung)|\bldct\b/i,
  notText: /\bpet\b|angiogra|\bcta\b|abdomen|pulmonary embol|\bpe protocol/i,
  source: 'Fleischner Society 2017 guidelines for incidental pulmonary nodules (follow-up CT of the chest); CPT 71250-71271',
};

const PET_CT: OrderGroup = {
  id: 'pet-ct',
  label: 'FDG PET/CT',
  codes: [
    cpt('78811', '78812', '78813', '78814', '78815', '78816'), // PET; PET with concurrently acquired CT (limited, skull base to mid-thigh, whole body)
  ],
  text: /\bpet\b|positron emission|\bfdg\b/i,
  source: 'Fleischner Society 2017 (solid nodule > 8 mm: consider PET/CT, tissue sampling or CT at 3 months); CPT 78811-78816',
};

const URINE_CULTURE: OrderGroup = {
  id: 'urine-culture',
  label: 'urine culture',
  codes: [
    loinc('630-4'), // Bacteria identified in Urine by Culture
    cpt('87086', '87088'), // urine culture, quantitative colony count; with isolation and presumptive identification
  ],
  text: /urine culture|culture.*urine|\bucx\b|\bu\/?c\b.*culture/i,
  source: 'IDSA 2010 uncomplicated cystitis guideline (urine culture and susceptibility); LOINC 630-4; CPT 87086',
};

const HCV_RNA: OrderGroup = {
  id: 'hcv-rna',
  label: 'hepatitis C virus RNA (quantitative viral load or qualitative NAT)',
  codes: [
    loinc(
      '11011-4', // Hepatitis C virus RNA [Units/volume] (viral load) in Serum or Plasma by NAA with probe detection
      '20416-5', // Hepatitis C virus RNA [Units/volume] (viral load) in Serum or Plasma by Probe with amplification
      '38180-6', // Hepatitis C virus RNA [International unit/volume] (viral load) in Serum or Plasma by NAA
      '10676-5', // Hepatitis C virus RNA [Units/volume] (viral load) in Serum or Plasma by Probe with signal amplification
      '5012-4', // Hepatitis C virus RNA [Presence] in Serum or Plasma by NAA with probe detection
    ),
    cpt('87520', '87521', '87522'), // HCV nucleic acid: direct probe, amplified probe, quantification
  ],
  text: /\bhcv\b.*\b(rna|viral load|pcr|nat|quant)|hepatitis c (virus )?(rna|viral load|pcr)|hep(atitis)? c (viral load|rna|pcr)/i,
  notText: /genotyp|antibod|\bab\b|anti-?hcv/i,
  source: 'AASLD/IDSA HCV Guidance (testing: a positive HCV antibody is confirmed by HCV RNA; simplified treatment: quantitative HCV RNA before treatment, SVR12 HCV RNA 12 weeks after); CPT 87520-87522',
};

const HBSAG: OrderGroup = {
  id: 'hbsag',
  label: 'hepatitis B surface antigen (alone or in an acute hepatitis panel)',
  codes: [
    loinc(
      '5196-1', // Hepatitis B virus surface Ag [Presence] in Serum or Plasma by Immunoassay
      '5195-3', // Hepatitis B virus surface Ag [Presence] in Serum
      '7905-3', // Hepatitis B virus surface Ag [Presence] in Serum or Plasma by Neutralization
      '24363-4', // Acute hepatitis 2000 panel - Serum (HAV IgM, HBc IgM, HBsAg, HCV Ab)
    ),
    cpt('87340', '80074'), // HBsAg immunoassay; acute hepatitis panel
  ],
  text: /\bhbsag\b|hepatitis b surface antigen|hep(atitis)? b (s|surface) ?(ag|antigen)|acute hepatitis panel/i,
  notText: /antibod|anti-?hbs|\bhbsab\b|vaccin/i,
  source: 'AASLD/IDSA HCV Guidance (pretreatment assessment: HBsAg, because HBV reactivation can occur during DAA therapy; FDA boxed warning 2016); CPT 87340',
};

const RETINAL_TOXICITY_SCREENING: OrderGroup = {
  id: 'retinal-toxicity-screening',
  label: 'hydroxychloroquine retinopathy screening (SD-OCT, automated visual fields, or an ophthalmology referral for it)',
  codes: [
    cpt(
      '92134', // scanning computerized ophthalmic diagnostic imaging, posterior segment, retina (SD-OCT)
      '92083', // visual field examination, extended (automated threshold perimetry, e.g. Humphrey 10-2)
      '92082', // visual field examination, intermediate
    ),
  ],
  text: /\b(sd-?)?oct\b|optical coherence tomograph|visual fields?\b|perimetry|humphrey|10-2\b|(hydroxychloroquine|plaquenil|hcq) (retinopathy |retinal |eye )?(screening|exam|toxicity)|retinal (toxicity )?screening|retinopathy screening/i,
  notText: /glaucoma|optic nerve|rnfl|cataract/i,
  referral: {
    specialty: [snomed('394594003')], // Ophthalmology
    specialtyText: /ophthalm|retina|eye (clinic|care|service)/i,
    reasonText: /hydroxychloroquine|plaquenil|\bhcq\b|retinopathy|retinal toxicity|maculopathy|\boct\b|visual field/i,
  },
  source: 'AAO 2016 recommendations on screening for chloroquine and hydroxychloroquine retinopathy (SD-OCT and automated visual fields; baseline within the first year, annual after 5 years or earlier with major risk factors); CPT 92134, 92083',
};

const HEPATIC_FUNCTION: OrderGroup = {
  id: 'hepatic-function',
  label: 'liver enzymes (ALT, or a hepatic function or comprehensive metabolic panel that reports it)',
  codes: [
    loinc(
      '1742-6', '1743-4', // ALT, with and without P-5'-P
      '24325-3', // Hepatic function 2000 panel
      '24323-8', // Comprehensive metabolic 2000 panel
    ),
    cpt('84460', '80076', '80053'), // ALT; hepatic function panel; comprehensive metabolic panel
  ],
  text: /\balt\b|alanine aminotransferase|\bsgpt\b|\blfts?\b|liver (function|enzymes?|panel)|hepatic (function )?panel|\bcmp\b|comprehensive metabolic/i,
  source: 'Isotretinoin prescribing information (liver function tests before therapy and at intervals until the response is established); CPT 84460, 80076',
};

const PREGNANCY_TEST: OrderGroup = {
  id: 'pregnancy-test',
  label: 'pregnancy test (urine or serum hCG)',
  codes: [
    loinc(
      '2106-3', // Choriogonadotropin (pregnancy test) [Presence] in Urine
      '2118-8', // Choriogonadotropin (pregnancy test) [Presence] in Serum or Plasma
      '19080-1', // Choriogonadotropin [Units/volume] in Serum or Plasma
      '21198-7', // Choriogonadotropin.beta subunit [Units/volume] in Serum or Plasma
    ),
    cpt('81025', '84703', '84702'), // urine pregnancy test; hCG qualitative; hCG quantitative
  ],
  text: /pregnan|\bb?-?hcg\b|beta[- ]?hcg|choriogonadotropin|gonadotropin/i,
  source: 'iPLEDGE REMS (a negative pregnancy test by a CLIA-certified laboratory before each monthly prescription for a patient who can become pregnant); CPT 81025, 84703',
};

/** Every order intent the graders know, by id. */
export const ORDER_GROUPS = {
  potassium: POTASSIUM,
  renalFunction: RENAL_FUNCTION,
  hba1c: HBA1C,
  lipids: LIPIDS,
  tsh: TSH,
  urate: URATE,
  cbc: CBC,
  urineAlbuminCreatinine: UACR,
  screeningMammography: SCREENING_MAMMOGRAPHY,
  colorectalScreening: COLORECTAL_SCREENING,
  dxa: DXA,
  spirometry: SPIROMETRY,
  ecg: ECG,
  echocardiogram: ECHOCARDIOGRAM,
  urinalysis: URINALYSIS,
  inr: INR,
  chestCt: CHEST_CT,
  petCt: PET_CT,
  urineCulture: URINE_CULTURE,
  hcvRna: HCV_RNA,
  hbsag: HBSAG,
  retinalToxicityScreening: RETINAL_TOXICITY_SCREENING,
  hepaticFunction: HEPATIC_FUNCTION,
  pregnancyTest: PREGNANCY_TEST,
} satisfies Record<string, OrderGroup>;

export interface OrderGroupMatch {
  ok: boolean;
  /** How the order matched, or why it did not. */
  why: string;
}

function inSets(concept: CodeableConcept | CodeableConcept[] | undefined, sets: CodeSet[]): string | undefined {
  for (const c of codingsOf(concept)) {
    if (c.code && sets.some((s) => s.system === c.system && s.codes.includes(c.code!))) return `${c.system}|${c.code}`;
  }
  return undefined;
}

/** Codings that name a particular test or procedure (known system, not a category-like generic concept). */
function specificCodings(concept: CodeableConcept | undefined) {
  return codingsOf(concept).filter((c) => c.code && c.system && SPECIFIC_SYSTEMS.has(c.system) && !(c.system === SNOMED && GENERIC_SNOMED.has(c.code)));
}

function conceptText(concepts: (CodeableConcept | undefined)[]): string {
  return concepts.flatMap((c) => [c?.text, ...codingsOf(c).map((x) => x.display)]).filter(Boolean).join(' | ');
}

function isReferral(order: ServiceRequest): boolean {
  return inSets(order.category, [REFERRAL_CODES]) !== undefined || inSets(order.code, [REFERRAL_CODES]) !== undefined
    || /referr/i.test(conceptText([order.code, ...(order.category ?? [])]));
}

function matchReferralRule(order: ServiceRequest, group: OrderGroup, rule: ReferralRule): OrderGroupMatch {
  if (!isReferral(order)) return { ok: false, why: 'not a referral' };
  const specialty = inSets(order.performerType, rule.specialty)
    ?? (rule.specialtyText.test([conceptText([order.performerType, order.code]), ...(order.performer ?? []).map((p) => p.display)].filter(Boolean).join(' | ')) ? 'named in text' : undefined);
  if (!specialty) return { ok: false, why: `referral does not name the specialty (${rule.specialtyText.source})` };
  const reason = [conceptText([...(order.reasonCode ?? []), order.code]), ...(order.note ?? []).map((n) => n.text), order.patientInstruction]
    .filter(Boolean).join(' | ');
  if (!rule.reasonText.test(reason) || (group.notText?.test(reason) ?? false)) return { ok: false, why: `referral reason "${reason || '(none)'}" does not state ${group.label}` };
  return { ok: true, why: `referral (${specialty}) for "${reason}"` };
}

/** Whether the order states the group's intent, and how (see the rules at the top of this file). */
export function matchOrderGroup(order: ServiceRequest, group: OrderGroup): OrderGroupMatch {
  const byCode = inSets(order.code, group.codes);
  if (byCode) return { ok: true, why: `${byCode} is a ${group.label}` };
  const referral = group.referral ? matchReferralRule(order, group, group.referral) : undefined;
  if (referral?.ok) return referral;
  const specific = specificCodings(order.code);
  if (specific.length > 0) return { ok: false, why: `coded ${specific.map((c) => `${c.system}|${c.code}`).join(', ')}, not a ${group.label}` };
  const text = conceptText([order.code]);
  if (!text) return { ok: false, why: 'the order has no code and no text' };
  if (group.notText?.test(text)) return { ok: false, why: `"${text}" is not a ${group.label}` };
  if (group.text.test(text)) return { ok: true, why: `"${text}" states a ${group.label}` };
  return { ok: false, why: `"${text}" does not state a ${group.label}` };
}

export function matchesOrderGroup(order: ServiceRequest, group: OrderGroup): boolean {
  return matchOrderGroup(order, group).ok;
}
