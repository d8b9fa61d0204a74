// Essential hypertension (cardiology / primary care). Diagnosis after two elevated office readings; ACE inhibitor
// first (ARB when allergic or intolerant: ACE-inhibitor cough), then amlodipine, then a thiazide (JNC8 / ACC-AHA 2017).
import type { ClinicalModule } from './module.ts';
import { byAge, chronicOnset, firstTolerated, followUps } from './module.ts';
import { DRUGS } from '../drugs.ts';
import { DAY, YEAR } from '../time.ts';
import type { MedCourse } from '../chart.ts';

export const HYPERTENSION = { icd: 'I10', snomed: '59621000', text: 'Essential hypertension' };

export const hypertension: ClinicalModule = {
  key: 'hypertension', title: 'Hypertension', specialty: 'primaryCare', condition: HYPERTENSION,
  // Diagnosed hypertension, US adults (CDC NHANES 2017-2020, age bands); obesity raises the risk.
  onset: (chart) => chronicOnset(chart, byAge(chart.age, [0.12, 0.42, 0.66]) * (chart.bmi > 30 ? 1.3 : 0.9), 25, 20),
  run(chart, onset) {
    const rise = chart.rng.between(18, 30);
    // Untreated pressure climbs over the year before diagnosis; each drug class brings it down about 8-10 mmHg.
    chart.modify('SBP', (t, v) => {
      if (t < onset - YEAR) return v;
      let bump = rise * Math.min(1, (t - (onset - YEAR)) / YEAR);
      for (const ing of ['29046', '52175', '17767', '5487']) if (chart.onMed(ing, t)) bump -= 9;
      return v + bump;
    });
    const screen = chart.visit(onset - 40 * DAY, { reason: 'Elevated blood pressure on screening', type: '185345009' });
    chart.vitals(screen);
    screen.plan.push('Elevated blood pressure; home readings and recheck in 4-6 weeks.');
    const visit = chart.visit(onset, { reason: 'Blood pressure recheck' });
    chart.vitals(visit);
    chart.diagnose('hypertension', HYPERTENSION, visit);
    chart.panel(visit, 'BMP');
    const first = firstTolerated(chart, DRUGS.lisinopril10, DRUGS.losartan50, DRUGS.amlodipine5)!;
    const courses: MedCourse[] = [];
    const c1 = chart.prescribe(first, visit, { indication: 'hypertension' });
    if (c1) courses.push(c1);
    chart.carePlan('hypertension', visit, ['Home blood pressure monitoring, goal below 130/80 mmHg.', 'Low-sodium (DASH) diet and 150 minutes of exercise a week.', 'Basic metabolic panel 2-4 weeks after starting an ACE inhibitor or ARB.']);
    let steps = 0;
    for (const t of followUps(chart, onset, 6)) {
      const fu = chart.visit(t, { reason: 'Hypertension follow-up', kind: chart.rng.chance(0.1) ? 'VR' : 'AMB' });
      if (fu.kind === 'VR') { chart.addressed('hypertension', fu, 'home readings reviewed.'); continue; }
      chart.vitals(fu);
      const sbp = chart.expected('SBP', t);
      if (c1 && c1.drug === DRUGS.lisinopril10 && !c1.end && chart.rng.chance(0.04)) {
        chart.stop(c1, fu.start, { code: 'sintol', text: 'dry cough on ACE inhibitor' }, fu);
        const arb = chart.prescribe(DRUGS.losartan50, fu, { indication: 'hypertension' });
        if (arb) courses.push(arb);
        chart.addressed('hypertension', fu, 'ACE-inhibitor cough; switched to ARB.');
      } else if (sbp > 138 && steps < 2) {
        const add = steps === 0 ? firstTolerated(chart, DRUGS.amlodipine5, DRUGS.hctz25) : firstTolerated(chart, DRUGS.hctz25);
        if (add && !courses.some((c) => c.drug.rxcui === add.rxcui)) {
          const c = chart.prescribe(add, fu, { indication: 'hypertension' });
          if (c) courses.push(c);
        }
        steps++;
        chart.addressed('hypertension', fu, `above goal (${Math.round(sbp)} systolic); therapy intensified.`);
      } else {
        const [s, d] = fu.bp!;
        chart.addressed('hypertension', fu, s < 130 && d < 80 ? `at goal (${s}/${d}) on current regimen.` : `${s}/${d}, above the 130/80 goal; home readings acceptable, lifestyle measures reinforced.`);
      }
      if (chart.rng.chance(0.5)) chart.panel(fu, 'BMP');
    }
    chart.appointment(chart.ref + chart.rng.between(14, 90) * DAY, chart.primaryCare(), 'Hypertension follow-up', 'hypertension');
  },
};
