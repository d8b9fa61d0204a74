// Rheumatology and bone: osteoporosis (DXA, bisphosphonate), gout (urate, allopurinol titrated to urate < 6, ACR
// 2020), rheumatoid arthritis (methotrexate with CBC/liver monitoring), systemic lupus (hydroxychloroquine).
import { byAge, simpleChronic } from './module.ts';
import { DRUGS } from '../drugs.ts';
import { YEAR } from '../time.ts';

export const osteoporosis = simpleChronic({
  key: 'osteoporosis', title: 'Osteoporosis', specialty: 'rheumatology',
  condition: { icd: 'M81.0', snomed: '64859006', text: 'Age-related osteoporosis' },
  // NHANES 2017-2018: 12.6% of adults 50+ (women 19.6%, men 4.4%).
  prevalence: (c) => (c.age < 50 ? 0 : c.female ? (c.age >= 65 ? 0.27 : 0.1) : (c.age >= 65 ? 0.07 : 0.02)), minAge: 50, maxYears: 10,
  drugs: [DRUGS.alendronate70], monitor: ['CMP'], followUpMonths: 12,
  workup: (c, v) => c.imaging(v, '312681000', { table: 'LOINC', code: '38269-7' }, `Lumbar spine T-score ${(-2.5 - c.rng.next() * 1.2).toFixed(1)}; femoral neck T-score ${(-2.0 - c.rng.next() * 1.2).toFixed(1)}. Osteoporosis.`, 'osteoporosis screening'),
  plan: ['Weekly alendronate; calcium 1200 mg and vitamin D 800 IU daily.', 'Fall prevention; repeat DXA in 2 years.'],
});

export const gout = simpleChronic({
  key: 'gout', title: 'Gout', specialty: 'rheumatology', referred: false,
  condition: { icd: 'M10.9', snomed: '90560007', text: 'Gout' },
  // NHANES 2015-2016: 3.9% of adults (men 5.2%, women 2.7%); more with CKD and diuretics.
  prevalence: (c, planned) => byAge(c.age, [0.015, 0.05, 0.08]) * (c.female ? 0.5 : 1.4) * (planned.has('ckd') ? 2 : 1), minAge: 25, maxYears: 10,
  drugs: [DRUGS.allopurinol100], monitor: ['URIC', 'BMP'], followUpMonths: 6,
  effects: (c, onset) => c.modify('URIC', (t, v) => (t >= onset - 2 * YEAR ? v + 3.5 : v)),
  workup: (c, v) => { c.test(v, 'URIC', { reliable: true }); c.prescribe(DRUGS.colchicine06, v, { indication: 'gout', end: v.start + 0.5 * YEAR, completes: true }); },
  plan: ['Allopurinol titrated to serum urate below 6 mg/dL.', 'Colchicine prophylaxis for 6 months while starting urate-lowering therapy.'],
});

export const rheumatoidArthritis = simpleChronic({
  key: 'rheumatoidArthritis', title: 'Rheumatoid arthritis', specialty: 'rheumatology',
  condition: { icd: 'M06.9', snomed: '69896004', text: 'Rheumatoid arthritis' },
  // ~0.6-1% of US adults; women 2-3x.
  prevalence: (c) => byAge(c.age, [0.003, 0.009, 0.015]) * (c.female ? 1.5 : 0.5), minAge: 20, maxYears: 15,
  drugs: [DRUGS.methotrexate25], monitor: ['CBC', 'CMP'], followUpMonths: 4,
  plan: ['Methotrexate weekly with folic acid; CBC and liver tests every 3 months.', 'Treat to target (low disease activity).'],
});

export const lupus = simpleChronic({
  key: 'lupus', title: 'Systemic lupus erythematosus', specialty: 'rheumatology',
  condition: { icd: 'M32.9', snomed: '55464009', text: 'Systemic lupus erythematosus' },
  // ~0.1% (CDC), 90% women.
  prevalence: (c) => byAge(c.age, [0.002, 0.0015, 0.001]) * (c.female ? 1.8 : 0.2), minAge: 16, maxYears: 15,
  drugs: [DRUGS.hydroxychloroquine200], monitor: ['CBC', 'CMP', 'UACR'], followUpMonths: 4,
  plan: ['Hydroxychloroquine; yearly retinal screening.', 'Monitor for nephritis (urine albumin, creatinine).'],
});
