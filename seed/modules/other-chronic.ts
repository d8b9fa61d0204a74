// Infectious disease (HIV, hepatitis C), dermatology (psoriasis), urology (BPH), obstetrics (pregnancy), obesity.
import { byAge, simpleChronic } from './module.ts';
import { DRUGS } from '../drugs.ts';

export const hiv = simpleChronic({
  key: 'hiv', title: 'HIV infection', specialty: 'infectiousDisease',
  condition: { icd: 'B20', snomed: '86406008', text: 'Human immunodeficiency virus infection' },
  // CDC: ~1.2 million people with HIV (~0.4%), men ~4x.
  prevalence: (c) => byAge(c.age, [0.004, 0.006, 0.003]) * (c.female ? 0.4 : 1.6), minAge: 18, maxYears: 15,
  drugs: [DRUGS.dolutegravir], monitor: ['CBC', 'CMP'], followUpMonths: 6,
  plan: ['Antiretroviral therapy; viral load and CD4 every 6 months.', 'Vaccinations and STI screening per guidelines.'],
});

export const hepatitisC = simpleChronic({
  key: 'hepatitisC', title: 'Chronic hepatitis C', specialty: 'infectiousDisease',
  condition: { icd: 'B18.2', snomed: '128302006', text: 'Chronic hepatitis C' },
  // CDC: ~2.2 million (~0.9% of adults), peak in people born 1945-1965.
  prevalence: (c) => byAge(c.age, [0.006, 0.015, 0.01]), minAge: 18, maxYears: 10,
  monitor: ['CMP', 'CBC'], followUpMonths: 6,
  effects: (c, onset) => c.modify('ALT', (t, v) => (t >= onset ? v * 2.2 : v)),
  plan: ['Direct-acting antiviral course for 8-12 weeks; SVR12 viral load.', 'Hepatitis A and B vaccination; alcohol avoidance.'],
});

export const psoriasis = simpleChronic({
  key: 'psoriasis', title: 'Psoriasis', specialty: 'dermatology',
  condition: { icd: 'L40.0', snomed: '9014002', text: 'Psoriasis vulgaris' },
  // ~3% of US adults (Armstrong, JAMA Dermatol 2021).
  prevalence: (c) => byAge(c.age, [0.025, 0.035, 0.03]), minAge: 12, maxYears: 20, followUpMonths: 12,
  plan: ['Topical corticosteroid and vitamin D analogue.', 'Phototherapy or systemic therapy if over 10% body surface area.'],
});

export const bph = simpleChronic({
  key: 'bph', title: 'Benign prostatic hyperplasia', specialty: 'urology', referred: false,
  condition: { icd: 'N40.1', snomed: '266569009', text: 'Benign prostatic hyperplasia with lower urinary tract symptoms' },
  // Symptomatic BPH ~25% of men 50-79, more with age.
  prevalence: (c) => (c.female || c.age < 45 ? 0 : c.age < 60 ? 0.12 : c.age < 75 ? 0.25 : 0.35), minAge: 45, maxYears: 10,
  drugs: [DRUGS.tamsulosin04], monitor: ['BMP'], followUpMonths: 12,
  plan: ['Alpha blocker at bedtime; IPSS yearly.', 'Urology if retention, hematuria or refractory symptoms.'],
});

export const pregnancy = simpleChronic({
  key: 'pregnancy', title: 'Pregnancy', specialty: 'obstetrics', referred: false,
  condition: { icd: 'Z34.90', snomed: '77386006', text: 'Pregnancy' },
  // ~3.6 million births a year: about 5% of women 18-44 are pregnant at any time; history window 2 years.
  prevalence: (c) => (c.female && c.age >= 18 && c.age < 45 ? 0.1 : 0), minAge: 18, maxYears: 2,
  monitor: ['CBC'], followUpMonths: 1.5, resolvesAfterYears: 0.75,
  plan: ['Prenatal vitamins; prenatal visits monthly to 28 weeks, then every 2 weeks.', 'Glucose challenge at 24-28 weeks; Tdap at 27-36 weeks.'],
});

export const obesity = simpleChronic({
  key: 'obesity', title: 'Obesity', specialty: 'primaryCare', referred: false,
  condition: { icd: 'E66.9', snomed: '414916001', text: 'Obesity' },
  // Recorded on the problem list for most patients with BMI >= 30 (NHANES 2017-2020 adult prevalence 41.9%).
  prevalence: (c) => (c.age >= 18 && c.bmi >= 30 ? 0.75 : 0), minAge: 18, maxYears: 10, followUpMonths: 12,
  plan: ['Nutrition counselling and 150 minutes a week of physical activity.', 'Consider pharmacotherapy if BMI over 30 after lifestyle change.'],
});
