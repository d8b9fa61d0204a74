// Hypothyroidism (endocrinology): TSH high before diagnosis, levothyroxine titrated in 25 mcg steps every 6-8 weeks
// until TSH is in range (ATA 2014); TSH follows the dose.
import type { ClinicalModule } from './module.ts';
import { byAge, chronicOnset } from './module.ts';
import { DRUGS } from '../drugs.ts';
import { DAY, YEAR } from '../time.ts';

export const HYPOTHYROIDISM = { icd: 'E03.9', snomed: '40930008', text: 'Hypothyroidism' };
export const hypothyroidism: ClinicalModule = {
  key: 'hypothyroidism', title: 'Hypothyroidism', specialty: 'endocrinology', condition: HYPOTHYROIDISM,
  // ~5% of US adults (ATA), about 5 times more common in women, rising with age.
  onset: (chart) => chronicOnset(chart, byAge(chart.age, [0.03, 0.06, 0.1]) * (chart.female ? 1.5 : 0.35), 20, 15),
  run(chart, onset) {
    const untreatedTsh = chart.rng.between(8, 18);
    const needed = Math.round((chart.expected('WEIGHT', onset) * 1.6) / 25) * 25; // full replacement dose, mcg
    let dose = 0;
    const doses: [number, number][] = []; // (from, mcg)
    chart.modify('TSH', (t, v) => {
      if (t < onset - 0.5 * YEAR) return v;
      let current = 0;
      for (const [from, mcg] of doses) if (from <= t) current = mcg;
      // TSH falls log-linearly as the dose approaches the replacement need.
      const deficit = Math.max(-0.6, 1 - current / needed);
      return deficit <= 0 ? Math.max(0.05, v * (1 + deficit * 1.5)) : v + (untreatedTsh - v) * deficit;
    });
    chart.modify('FT4', (t, v) => (t >= onset - 0.5 * YEAR && !chart.onMed('10582', t) ? v * 0.55 : v));
    const visit = chart.visit(onset, { reason: 'Fatigue, weight gain and cold intolerance' });
    chart.vitals(visit);
    chart.test(visit, 'TSH', { reliable: true });
    chart.test(visit, 'FT4', { reliable: true });
    chart.diagnose('hypothyroidism', HYPOTHYROIDISM, visit);
    dose = chart.ageAt(onset) > 60 || chart.has('cad', onset) ? 25 : 50;
    doses.push([visit.start, dose]);
    let course = chart.prescribe(DRUGS.levothyroxine(dose), visit, { indication: 'hypothyroidism' });
    chart.carePlan('hypothyroidism', visit, ['Levothyroxine on an empty stomach, apart from calcium and iron.', 'TSH 6-8 weeks after each dose change, then yearly.']);
    // Titration visits every ~7 weeks until TSH is in range, then yearly.
    let t = onset + 50 * DAY;
    while (t < chart.ref - 7 * DAY && course) {
      const fu = chart.visit(t, { specialty: 'endocrinology', reason: 'Thyroid follow-up: TSH recheck' });
      const tsh = chart.testResult(fu, 'TSH', { reliable: true })!;
      const value = tsh.valueQuantity!.value!;
      if (value > 4.0 && dose < 200) {
        dose += 25;
        doses.push([fu.start, dose]);
        course = chart.change(course, DRUGS.levothyroxine(dose), fu, `TSH ${value} above range: dose increased`);
        chart.addressed('hypothyroidism', fu, `TSH ${value}; levothyroxine increased to ${dose} mcg.`);
        t += 50 * DAY;
      } else if (value < 0.4 && dose > 25) {
        dose -= 25;
        doses.push([fu.start, dose]);
        course = chart.change(course, DRUGS.levothyroxine(dose), fu, `TSH ${value} suppressed: dose reduced`);
        chart.addressed('hypothyroidism', fu, `TSH ${value}; levothyroxine reduced to ${dose} mcg.`);
        t += 50 * DAY;
      } else {
        chart.addressed('hypothyroidism', fu, `TSH ${value}, euthyroid on ${dose} mcg.`);
        t += 365 * DAY * chart.rng.between(0.8, 1.2);
      }
    }
  },
};
