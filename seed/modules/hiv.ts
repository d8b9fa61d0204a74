// HIV infection (infectious disease): antiretroviral therapy, 6-monthly viral load, CD4, CBC and CMP.
import { byAge, simpleChronic } from './module.ts';
import { DRUGS } from '../drugs.ts';
import { DAY, YEAR } from '../time.ts';

export const hiv = simpleChronic({
  key: 'hiv', title: 'HIV infection', specialty: 'infectiousDisease',
  condition: { icd: 'B20', snomed: '86406008', text: 'Human immunodeficiency virus infection' },
  // CDC: ~1.2 million people with HIV (~0.4%), men ~4x.
  prevalence: (c) => byAge(c.age, [0.004, 0.006, 0.003]) * (c.female ? 0.4 : 1.6), minAge: 18, maxYears: 15,
  drugs: [DRUGS.dolutegravir], monitor: ['CBC', 'CMP', 'HIVVL', 'CD4'], followUpMonths: 6,
  effects: (c, onset, rng) => {
    // Untreated: viraemia of 10^4-10^5.5 copies/mL and a depleted CD4 count; antiretroviral therapy suppresses the
    // virus within about 3 months (DHHS 2024: the goal) and CD4 recovers by ~100/uL a year.
    const setPoint = 10 ** rng.between(4, 5.5);
    const nadir = rng.between(150, 450);
    const art = (t: number) => c.activeCourse('1433868', t);
    c.modify('HIVVL', (t, v) => {
      if (t < onset - 0.5 * YEAR) return v;
      const course = art(t);
      if (!course) return setPoint;
      const months = (t - course.start) / (30 * DAY);
      return months >= 3 ? 0 : setPoint * 10 ** (-months * 1.5);
    });
    c.modify('CD4', (t, v) => {
      if (t < onset - 0.5 * YEAR) return v;
      const course = art(t);
      return course ? Math.min(v, nadir + 100 * ((t - course.start) / YEAR)) : nadir;
    });
  },
  plan: ['Antiretroviral therapy; viral load and CD4 every 6 months.', 'Vaccinations and STI screening per guidelines.'],
});
