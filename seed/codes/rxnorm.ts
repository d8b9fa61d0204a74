// RxNorm concepts the generator emits, with term type and ingredient relations (SCD -> IN; an IN is its own
// ingredient). Clinical drugs (SCD) are used where their RXCUI is certain; otherwise orders carry the ingredient (IN)
// concept and the strength lives in the dosage, which RxNorm allows.
import type { CodeTable } from './types.ts';

export interface RxNormConcept {
  display: string;
  tty: 'IN' | 'SCD';
  /** Ingredient RXCUIs (has_ingredient relation). */
  ingredients: string[];
}

const IN = (display: string): Omit<RxNormConcept, 'ingredients'> & { ingredients?: string[] } => ({ display, tty: 'IN' });
const SCD = (display: string, ...ingredients: string[]): RxNormConcept => ({ display, tty: 'SCD', ingredients });

const raw: Record<string, Omit<RxNormConcept, 'ingredients'> & { ingredients?: string[] }> = {
  // ingredients
  '6809': IN('metformin'),
  '29046': IN('lisinopril'),
  '17767': IN('amlodipine'),
  '5487': IN('hydrochlorothiazide'),
  '52175': IN('losartan'),
  '83367': IN('atorvastatin'),
  '301542': IN('rosuvastatin'),
  '11289': IN('warfarin'),
  '1364430': IN('apixaban'),
  '6918': IN('metoprolol'),
  '20352': IN('carvedilol'),
  '4603': IN('furosemide'),
  '9997': IN('spironolactone'),
  '10582': IN('levothyroxine'),
  '6835': IN('methimazole'),
  '435': IN('albuterol'),
  '41126': IN('fluticasone'),
  '69120': IN('tiotropium'),
  '36437': IN('sertraline'),
  '321988': IN('escitalopram'),
  '42351': IN('lithium carbonate'),
  '46041': IN('alendronate'),
  '519': IN('allopurinol'),
  '2683': IN('colchicine'),
  '24947': IN('ferrous sulfate'),
  '4821': IN('glipizide'),
  '1545653': IN('empagliflozin'),
  '274783': IN('insulin glargine'),
  '7646': IN('omeprazole'),
  '77492': IN('tamsulosin'),
  '37418': IN('sumatriptan'),
  '114477': IN('levetiracetam'),
  '135447': IN('donepezil'),
  '5521': IN('hydroxychloroquine'),
  '6851': IN('methotrexate'),
  '52582': IN('mesalamine'),
  '1191': IN('aspirin'),
  '32968': IN('clopidogrel'),
  '723': IN('amoxicillin'),
  '10180': IN('sulfamethoxazole'),
  '10831': IN('trimethoprim'),
  '2231': IN('cephalexin'),
  '5640': IN('ibuprofen'),
  '8640': IN('prednisone'),
  '6218': IN('lactulose'),
  '1433868': IN('dolutegravir'),
  // clinical drugs (SCD)
  '314076': SCD('lisinopril 10 MG Oral Tablet', '29046'),
  '314077': SCD('lisinopril 20 MG Oral Tablet', '29046'),
  '197361': SCD('amlodipine 5 MG Oral Tablet', '17767'),
  '310798': SCD('hydrochlorothiazide 25 MG Oral Tablet', '5487'),
  '979492': SCD('losartan potassium 50 MG Oral Tablet', '52175'),
  '979480': SCD('losartan potassium 100 MG Oral Tablet', '52175'),
  '855332': SCD('warfarin sodium 5 MG Oral Tablet', '11289'),
  '1364445': SCD('apixaban 5 MG Oral Tablet', '1364430'),
  '1364435': SCD('apixaban 2.5 MG Oral Tablet', '1364430'),
  '866427': SCD('24 HR metoprolol succinate 25 MG Extended Release Oral Tablet', '6918'),
  '866436': SCD('24 HR metoprolol succinate 50 MG Extended Release Oral Tablet', '6918'),
  '200031': SCD('carvedilol 6.25 MG Oral Tablet', '20352'),
  '200032': SCD('carvedilol 12.5 MG Oral Tablet', '20352'),
  '313988': SCD('furosemide 40 MG Oral Tablet', '4603'),
  '313096': SCD('spironolactone 25 MG Oral Tablet', '9997'),
  '308191': SCD('amoxicillin 500 MG Oral Capsule', '723'),
  '198335': SCD('sulfamethoxazole 800 MG / trimethoprim 160 MG Oral Tablet', '10180', '10831'),
  '309114': SCD('cephalexin 500 MG Oral Capsule', '2231'),
};

export const RXNORM_CONCEPTS: Record<string, RxNormConcept> = Object.fromEntries(
  Object.entries(raw).map(([code, c]) => [code, { ...c, ingredients: c.ingredients ?? [code] }]),
);

export const RXNORM: CodeTable = {
  system: 'http://www.nlm.nih.gov/research/umls/rxnorm',
  title: 'RxNorm',
  concepts: Object.fromEntries(Object.entries(RXNORM_CONCEPTS).map(([code, c]) => [code, c.display])),
};

/** Ingredient RXCUIs of a concept ([] when unknown). */
export function ingredientsOf(rxcui: string): string[] {
  return RXNORM_CONCEPTS[rxcui]?.ingredients ?? [];
}
