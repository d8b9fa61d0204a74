// Iron-deficiency anemia (hematology): hemoglobin, MCV and ferritin fall before diagnosis, recover on oral iron.
import { byAge, simpleChronic } from './module.ts';
import { DRUGS } from '../drugs.ts';
import { DAY, YEAR } from '../time.ts';

export const anemia = simpleChronic({
  key: 'anemia', title: 'Iron deficiency anemia', specialty: 'hematology', referred: false,
  condition: { icd: 'D50.9', snomed: '87522002', text: 'Iron deficiency anemia' },
  // NHANES: iron-deficiency anemia ~3-5% of women of reproductive age, ~1-2% of men and older adults.
  prevalence: (c) => byAge(c.age, [c.female ? 0.05 : 0.01, c.female ? 0.03 : 0.015, 0.03]), minAge: 14, maxYears: 3,
  drugs: [DRUGS.ferrousSulfate], monitor: ['CBC', 'FERR'], followUpMonths: 3, resolvesAfterYears: 1,
  effects: (c, onset, rng) => {
    // Hemoglobin falls over months before diagnosis and recovers over ~3 months of iron.
    const drop = rng.between(2.5, 4);
    const level = (t: number) => t < onset - 0.5 * YEAR ? 0 : t < onset ? drop * ((t - (onset - 0.5 * YEAR)) / (0.5 * YEAR)) : Math.max(0, drop * (1 - (t - onset) / (120 * DAY)));
    c.modify('HGB', (t, v) => v - level(t));
    c.modify('MCV', (t, v) => v - level(t) * 4);
    c.modify('FERR', (t, v) => (level(t) > 0.5 ? Math.min(v, 6 + c.rng.next() * 6) : v));
  },
  workup: (c, v) => { c.panel(v, 'CBC', { reliable: true }); c.test(v, 'FERR', { reliable: true }); },
  plan: ['Oral iron daily; recheck CBC and ferritin in 8-12 weeks.', 'Evaluate source of iron loss (GI evaluation if indicated).'],
});
