// Order intent groups: every equivalent code of an intent passes, the tempting neighbour (sodium for potassium, a
// diagnostic breast ultrasound for a screening mammogram, a GI referral for GERD) does not.
import t, { type Test } from 'tap';
import type { ServiceRequest } from '@medplum/fhirtypes';
import { LOINC, SNOMED } from '../../../graders/lib/codings.ts';
import { CPT, FLOWSHEET_SYSTEM, HCPCS, matchesOrderGroup, matchOrderGroup, ORDER_GROUPS, type OrderGroup } from '../../../graders/lib/order-groups.ts';

const subject = { reference: 'Patient/p1' };
const order = (fields: Partial<ServiceRequest>): ServiceRequest => ({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject, ...fields });
const coded = (system: string, code: string, display?: string): ServiceRequest => order({ code: { coding: [{ system, code, ...(display ? { display } : {}) }] } });
const text = (words: string): ServiceRequest => order({ code: { text: words } });

function table(t: Test, group: OrderGroup, accepts: [string, ServiceRequest][], rejects: [string, ServiceRequest][]): void {
  for (const [name, o] of accepts) t.ok(matchesOrderGroup(o, group), `${group.id} accepts ${name}: ${matchOrderGroup(o, group).why}`);
  for (const [name, o] of rejects) t.notOk(matchesOrderGroup(o, group), `${group.id} rejects ${name}: ${matchOrderGroup(o, group).why}`);
}

t.test('potassium: K in blood, panels and the renal function panel count; sodium, a lipid panel and KCl do not', async (t) => {
  table(t, ORDER_GROUPS.potassium, [
    ['serum K 2823-3', coded(LOINC, '2823-3')],
    ['whole-blood K 6298-4', coded(LOINC, '6298-4')],
    ['BMP 2000 24321-2', coded(LOINC, '24321-2')],
    ['BMP blood 51990-0', coded(LOINC, '51990-0')],
    ['renal function panel 24362-6', coded(LOINC, '24362-6')],
    ['CMP 24323-8', coded(LOINC, '24323-8')],
    ['CPT 80048 (BMP)', coded(CPT, '80048')],
    ['flowsheet K', coded(FLOWSHEET_SYSTEM, 'K')],
    ['text-only "Repeat BMP in 1 week"', text('Repeat BMP in 1 week')],
    ['text-only "Potassium level"', text('Potassium level')],
    ['generic lab code with text', order({ code: { coding: [{ system: SNOMED, code: '108252007' }], text: 'Basic metabolic panel' } })],
  ], [
    ['sodium 2951-2', coded(LOINC, '2951-2')],
    ['lipid panel 24331-1', coded(LOINC, '24331-1')],
    ['potassium in red cells 2824-1', coded(LOINC, '2824-1')],
    ['sodium coded, "potassium" in its display', coded(LOINC, '2951-2', 'Potassium')],
    ['text-only "Potassium chloride 20 mEq"', text('Potassium chloride 20 mEq')],
    ['text-only "urine potassium"', text('Urine potassium')],
    ['text-only "Lipid panel"', text('Lipid panel')],
    ['no code at all', order({})],
  ]);
});

t.test('renal function: creatinine, eGFR and panels; a urine albumin/creatinine ratio is not', async (t) => {
  table(t, ORDER_GROUPS.renalFunction, [
    ['creatinine 2160-0', coded(LOINC, '2160-0')],
    ['eGFR CKD-EPI 2021 98979-8', coded(LOINC, '98979-8')],
    ['renal panel 24362-6', coded(LOINC, '24362-6')],
    ['CPT 82565', coded(CPT, '82565')],
    ['text "Creatinine / eGFR"', text('Creatinine / eGFR')],
  ], [
    ['UACR 14959-1', coded(LOINC, '14959-1')],
    ['text "urine albumin/creatinine ratio"', text('Urine albumin/creatinine ratio')],
    ['potassium alone 2823-3', coded(LOINC, '2823-3')],
  ]);
});

t.test('screening mammography: CPT 77067 (no category needed), LOINC 24606-6, tomosynthesis, G0202; not diagnostic imaging', async (t) => {
  table(t, ORDER_GROUPS.screeningMammography, [
    ['CPT 77067', coded(CPT, '77067')],
    ['CPT 77063 tomosynthesis', coded(CPT, '77063')],
    ['HCPCS G0202', coded(HCPCS, 'G0202')],
    ['LOINC 24606-6', coded(LOINC, '24606-6')],
    ['SNOMED 24623002', coded(SNOMED, '24623002')],
    ['text "Screening mammogram, bilateral"', text('Screening mammogram, bilateral')],
  ], [
    ['diagnostic breast ultrasound LOINC 24601-7', coded(LOINC, '24601-7', 'US Breast')],
    ['diagnostic mammogram CPT 77066', coded(CPT, '77066')],
    ['diagnostic mammogram LOINC 24605-8', coded(LOINC, '24605-8')],
    ['text "Diagnostic mammogram left breast"', text('Diagnostic mammogram left breast')],
    ['text "Breast ultrasound"', text('Breast ultrasound')],
    ['DXA 77080', coded(CPT, '77080')],
  ]);
});

const referral = (performer: string, reason: string): ServiceRequest => order({
  category: [{ coding: [{ system: SNOMED, code: '3457005', display: 'Patient referral' }] }],
  code: { coding: [{ system: SNOMED, code: '3457005', display: 'Patient referral' }], text: 'Referral' },
  performerType: { coding: [{ system: SNOMED, code: '394584008', display: 'Gastroenterology' }], text: performer },
  reasonCode: [{ text: reason }],
});

t.test('colorectal screening: any USPSTF modality, HCPCS G0121, or a GI referral for screening colonoscopy; not a GI referral for GERD', async (t) => {
  table(t, ORDER_GROUPS.colorectalScreening, [
    ['HCPCS G0121', coded(HCPCS, 'G0121')],
    ['CPT 45378', coded(CPT, '45378')],
    ['FIT 29771-3', coded(LOINC, '29771-3')],
    ['FIT-DNA 77353-1', coded(LOINC, '77353-1')],
    ['CT colonography CPT 74263', coded(CPT, '74263')],
    ['flexible sigmoidoscopy HCPCS G0104', coded(HCPCS, 'G0104')],
    ['SNOMED colonoscopy 73761001', coded(SNOMED, '73761001')],
    ['GI referral, reason "screening colonoscopy"', referral('Gastroenterology', 'Average-risk colorectal cancer screening: screening colonoscopy')],
    ['GI referral by text only', order({ code: { text: 'Referral to GI' }, performerType: { text: 'GI clinic' }, reasonCode: [{ text: 'Colonoscopy for CRC screening, age 52' }] })],
  ], [
    ['GI referral for GERD', referral('Gastroenterology', 'GERD refractory to PPI, consider EGD')],
    ['cardiology referral for screening colonoscopy', order({ ...referral('', 'screening colonoscopy'), performerType: { coding: [{ system: SNOMED, code: '394579002', display: 'Cardiology' }] } })],
    ['upper endoscopy CPT 43235', coded(CPT, '43235')],
    ['CBC 58410-2', coded(LOINC, '58410-2')],
  ]);
});

t.test('other groups: the right code passes, the neighbouring test does not', async (t) => {
  table(t, ORDER_GROUPS.hba1c, [['HPLC A1c 17856-6', coded(LOINC, '17856-6')], ['text "HbA1c"', text('HbA1c')]], [['glucose 2345-7', coded(LOINC, '2345-7')]]);
  table(t, ORDER_GROUPS.lipids, [['direct LDL 18262-6', coded(LOINC, '18262-6')], ['CPT 80061', coded(CPT, '80061')]], [['Lp(a) text', text('Lipoprotein (a)')], ['TSH', coded(LOINC, '3016-3')]]);
  table(t, ORDER_GROUPS.tsh, [['3016-3', coded(LOINC, '3016-3')], ['text "TSH with reflex FT4"', text('TSH with reflex FT4')]], [['free T4 3024-7', coded(LOINC, '3024-7')]]);
  table(t, ORDER_GROUPS.urate, [['molar urate 14933-6', coded(LOINC, '14933-6')], ['text "uric acid"', text('Uric acid level')]], [['creatinine 2160-0', coded(LOINC, '2160-0')], ['text "24 h urine uric acid"', text('24 h urine uric acid')]]);
  table(t, ORDER_GROUPS.cbc, [['CBC with diff 57021-8', coded(LOINC, '57021-8')]], [['hemoglobin alone 718-7', coded(LOINC, '718-7')]]);
  table(t, ORDER_GROUPS.urineAlbuminCreatinine, [['9318-7', coded(LOINC, '9318-7')], ['text "urine ACR"', text('Urine ACR')]], [['urinalysis 24356-8', coded(LOINC, '24356-8')]]);
  table(t, ORDER_GROUPS.dxa, [['CPT 77080', coded(CPT, '77080')], ['LOINC 38269-7', coded(LOINC, '38269-7')]], [['heel ultrasound text', text('Heel ultrasound bone density')], ['chest x-ray', coded(SNOMED, '399208008')]]);
  table(t, ORDER_GROUPS.spirometry, [['CPT 94060', coded(CPT, '94060')], ['text "PFTs"', text('Full PFTs')]], [['chest x-ray', coded(SNOMED, '399208008')]]);
  table(t, ORDER_GROUPS.ecg, [['CPT 93000', coded(CPT, '93000')], ['text "12-lead EKG"', text('12-lead EKG')]], [['text "exercise stress ECG"', text('Exercise stress ECG')]]);
  table(t, ORDER_GROUPS.echocardiogram, [['CPT 93306', coded(CPT, '93306')], ['text "TTE"', text('TTE to assess LVEF')]], [['text "dobutamine stress echo"', text('Dobutamine stress echo')], ['ECG 93000', coded(CPT, '93000')]]);
  table(t, ORDER_GROUPS.urinalysis, [['24357-6', coded(LOINC, '24357-6')], ['CPT 81003', coded(CPT, '81003')], ['text "UA"', text('UA')]], [['urine culture text', text('Urine culture')], ['UACR 14959-1', coded(LOINC, '14959-1')]]);
  table(t, ORDER_GROUPS.inr, [['INR 6301-6', coded(LOINC, '6301-6')], ['CPT 85610', coded(CPT, '85610')], ['text "PT/INR"', text('PT/INR')]], [['text "PTT"', text('PTT')], ['CBC 58410-2', coded(LOINC, '58410-2')]]);
  table(t, ORDER_GROUPS.chestCt, [['CPT 71250', coded(CPT, '71250')], ['low-dose CPT 71271', coded(CPT, '71271')], ['text "CT chest without contrast"', text('CT chest without contrast')]], [['text "PET/CT"', text('PET/CT skull base to mid-thigh')], ['text "CT angiogram chest"', text('CTA chest PE protocol')], ['chest x-ray', coded(SNOMED, '399208008')]]);
  table(t, ORDER_GROUPS.petCt, [['CPT 78815', coded(CPT, '78815')], ['text "FDG PET/CT"', text('FDG PET/CT')]], [['CT chest 71250', coded(CPT, '71250')]]);
  table(t, ORDER_GROUPS.urineCulture, [['630-4', coded(LOINC, '630-4')], ['text "Urine culture"', text('Urine culture')]], [['urinalysis 24356-8', coded(LOINC, '24356-8')], ['text "blood culture"', text('Blood culture')]]);
  table(t, ORDER_GROUPS.hcvRna, [['11011-4', coded(LOINC, '11011-4')], ['CPT 87522', coded(CPT, '87522')], ['text "HCV RNA quantitative"', text('HCV RNA, quantitative (viral load)')], ['text "Hepatitis C viral load"', text('Hepatitis C viral load')]],
    [['HCV antibody 13955-0', coded(LOINC, '13955-0')], ['text "HCV antibody"', text('HCV antibody with reflex to RNA')], ['text "HCV genotype"', text('HCV RNA genotype')]]);
  table(t, ORDER_GROUPS.hbsag, [['5196-1', coded(LOINC, '5196-1')], ['CPT 87340', coded(CPT, '87340')], ['text "HBsAg"', text('HBsAg')], ['text "acute hepatitis panel"', text('Acute hepatitis panel')]],
    [['text "HBsAb"', text('Hepatitis B surface antibody (anti-HBs)')], ['text "HBV DNA"', text('HBV DNA, quantitative')], ['HCV RNA 11011-4', coded(LOINC, '11011-4')]]);
  table(t, ORDER_GROUPS.retinalToxicityScreening,
    [['CPT 92134', coded(CPT, '92134')], ['CPT 92083', coded(CPT, '92083')], ['text "SD-OCT macula"', text('SD-OCT macula')], ['text "Humphrey 10-2 visual field"', text('Humphrey 10-2 visual field')],
      ['ophthalmology referral for HCQ screening', referral('Ophthalmology', 'Hydroxychloroquine retinopathy screening')]],
    [['text "OCT RNFL for glaucoma"', text('OCT optic nerve RNFL, glaucoma follow-up')], ['ophthalmology referral for cataract', referral('Ophthalmology', 'Cataract evaluation')],
      ['cardiology referral for retinopathy', order({ ...referral('', 'hydroxychloroquine retinopathy'), performerType: { coding: [{ system: SNOMED, code: '394579002', display: 'Cardiology' }] } })]]);
  table(t, ORDER_GROUPS.hepaticFunction, [['ALT 1742-6', coded(LOINC, '1742-6')], ['CPT 80076', coded(CPT, '80076')], ['text "LFTs"', text('LFTs')], ['text "CMP"', text('CMP')]],
    [['lipid panel 24331-1', coded(LOINC, '24331-1')], ['text "TSH"', text('TSH')]]);
  table(t, ORDER_GROUPS.pregnancyTest, [['urine hCG 2106-3', coded(LOINC, '2106-3')], ['CPT 81025', coded(CPT, '81025')], ['text "Serum beta-hCG"', text('Serum beta-hCG')], ['text "Urine pregnancy test"', text('Urine pregnancy test')]],
    [['text "TSH"', text('TSH')], ['ALT 1742-6', coded(LOINC, '1742-6')]]);
});

t.test('every group names its source and has codes in at least one system', async (t) => {
  for (const group of Object.values(ORDER_GROUPS)) {
    t.ok(group.source.length > 0, `${group.id} cites a source`);
    t.ok(group.codes.some((s) => s.codes.length > 0), `${group.id} has codes`);
  }
});
