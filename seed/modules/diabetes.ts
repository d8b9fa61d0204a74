// Type 2 diabetes (endocrinology / primary care), ADA Standards of Care: A1c >= 6.5% on screening, confirmed before
// the diagnosis; metformin first (not when eGFR < 30; stopped when it falls below 30), then an SGLT2 inhibitor when CKD
// or heart failure is present (eGFR >= 20) or a sulfonylurea otherwise, then basal insulin. A1c responds to each step.
import type { ClinicalModule } from './module.ts';
import { byAge, chronicOnset, followUps } from './module.ts';
import { DRUGS } from '../drugs.ts';
import { DAY, YEAR } from '../time.ts';
import type { Drug, MedCourse } from '../chart.ts';

export const DIABETES = { icd: 'E11.9', snomed: '44054006', text: 'Type 2 diabetes mellitus' };
export const DIABETES_CKD = { icd: 'E11.22', snomed: '44054006', text: 'Type 2 diabetes mellitus with diabetic chronic kidney disease' };

const LOWERING: Record<string, number> = { '6809': 1.1, '1545653': 0.7, '4821': 1.0, '274783': 1.6 };

export const diabetes: ClinicalModule = {
  key: 'diabetes', title: 'Type 2 diabetes', specialty: 'endocrinology', condition: DIABETES,
  // Diagnosed diabetes (CDC National Diabetes Statistics Report 2023: 18-44 ~3%, 45-64 ~15%, 65+ ~24%); obesity x2.
  onset: (chart) => chronicOnset(chart, byAge(chart.age, [0.025, 0.13, 0.21]) * (chart.bmi > 30 ? 1.6 : 0.7), 25, 15),
  physiology(chart, onset, rng) {
    const untreated = rng.between(7.0, 9.5);
    const drift = rng.between(0.1, 0.3); // A1c creeps up per year of disease
    // Prediabetes ramp for 3 years, then the untreated level; each glucose-lowering drug takes its share off.
    chart.modify('A1C', (t, v) => {
      if (t < onset - 3 * YEAR) return v;
      if (t < onset - 60 * DAY) return v + (6.1 - v) * ((t - (onset - 3 * YEAR)) / (3 * YEAR - 60 * DAY));
      let a1c = untreated + drift * Math.max(0, (t - onset) / YEAR);
      for (const [ing, drop] of Object.entries(LOWERING)) if (chart.onMed(ing, t)) a1c -= drop;
      return Math.max(6.0, a1c);
    });
  },
  run(chart, onset) {
    // The draws the physiology phase now takes from its own stream, still taken here: the rest of this chart's
    // stream stays where it was, so the charts tasks bind to do not move.
    chart.rng.between(7.0, 9.5);
    chart.rng.between(0.1, 0.3);
    // The untreated level the physiology holds a month before diagnosis (no glucose-lowering drug yet).
    const untreated = chart.expected('A1C', onset - 30 * DAY);
    const screen = chart.visit(onset - 30 * DAY, { reason: 'Diabetes screening' });
    chart.vitals(screen);
    chart.test(screen, 'A1C', { value: Math.max(6.6, untreated - 0.2), reliable: true });
    chart.panel(screen, 'CMP', { reliable: true });
    screen.plan.push('A1c above 6.5%; repeat to confirm diabetes.');
    const visit = chart.visit(onset, { reason: 'Elevated hemoglobin A1c' });
    chart.vitals(visit);
    chart.test(visit, 'A1C', { value: Math.max(6.5, untreated), reliable: true });
    const hasCkd = chart.has('ckd', onset);
    chart.diagnose('diabetes', hasCkd ? DIABETES_CKD : DIABETES, visit);
    const courses: MedCourse[] = [];
    const start = (drug: Drug, v = visit) => {
      const c = chart.prescribe(drug, v, { indication: 'diabetes' });
      if (c) courses.push(c);
      return c;
    };
    if (chart.expected('EGFR', onset) >= 30) start(DRUGS.metformin500);
    else start(chart.expected('EGFR', onset) >= 20 ? DRUGS.empagliflozin10 : DRUGS.glipizide5);
    chart.referral(visit, 'endocrinology', 'diabetes education and management');
    chart.carePlan('diabetes', visit, ['A1c goal below 7%.', 'Diabetes self-management education; medical nutrition therapy.', 'Yearly urine albumin/creatinine ratio, retinal exam and foot exam.']);
    let stepped = 0;
    for (const t of followUps(chart, onset, 4)) {
      const fu = chart.visit(t, { specialty: chart.rng.chance(0.5) ? 'endocrinology' : undefined, reason: 'Diabetes follow-up' });
      chart.vitals(fu);
      const a1c = chart.testResult(fu, 'A1C', { reliable: stepped === 0 });
      if (chart.rng.chance(0.4)) chart.panel(fu, 'BMP');
      if (chart.rng.chance(0.25)) chart.test(fu, 'UACR');
      const egfr = chart.expected('EGFR', t);
      const metformin = courses.find((c) => c.drug.rxcui === '6809' && !c.end);
      if (metformin && egfr < 30) {
        chart.stop(metformin, fu.start, { code: 'labint', text: `eGFR ${Math.round(egfr)} below 30: metformin contraindicated` }, fu);
        start(egfr >= 20 ? DRUGS.empagliflozin10 : DRUGS.glipizide5, fu);
        chart.addressed('diabetes', fu, 'kidney function declined; metformin stopped.');
        continue;
      }
      const value = a1c?.valueQuantity?.value ?? chart.expected('A1C', t);
      if (value > 7.5 && stepped < 3) {
        if (metformin && metformin.drug === DRUGS.metformin500 && stepped === 0) {
          const c = chart.change(metformin, DRUGS.metformin1000, fu, 'dose increased for A1c above goal');
          if (c) courses.push(c);
        } else {
          const favorSglt2 = (chart.has('ckd', t) || chart.has('heartFailure', t)) && egfr >= 20;
          const next = !courses.some((c) => c.drug.rxcui === '1545653') && (favorSglt2 || egfr >= 45) ? DRUGS.empagliflozin10
            : !courses.some((c) => c.drug.rxcui === '4821') ? DRUGS.glipizide5 : DRUGS.glargine;
          if (!courses.some((c) => c.drug === next && !c.end)) start(next, fu);
        }
        stepped++;
        chart.addressed('diabetes', fu, `A1c ${value}% above goal; therapy intensified.`);
      } else {
        chart.addressed('diabetes', fu, `A1c ${value}%.`);
      }
    }
    const next = chart.ref + chart.rng.between(10, 90) * DAY;
    chart.appointment(next, chart.clinician('endocrinology'), 'Diabetes follow-up', 'diabetes');
    chart.futureOrder('A1C', next - 7 * DAY, chart.clinician('endocrinology'), 'diabetes');
  },
};
