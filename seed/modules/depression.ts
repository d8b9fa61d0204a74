// Depression (psychiatry): PHQ-9 at diagnosis and follow-up, SSRI titrated on partial response, psychotherapy referral.
import type { ClinicalModule } from './module.ts';
import { byAge, chronicOnset, followUps } from './module.ts';
import { DRUGS } from '../drugs.ts';
import { HL7, LOINC, UCUM, codingOf } from '../codes/index.ts';
import type { Chart, Visit } from '../chart.ts';
import { MINUTE } from '../time.ts';

export const DEPRESSION = { icd: 'F33.1', snomed: '370143000', text: 'Major depressive disorder, recurrent, moderate' };
function phq9(chart: Chart, visit: Visit, score: number): void {
  chart.resources.push({
    resourceType: 'Observation', id: chart.newId('obs'), status: 'final',
    category: [{ coding: [codingOf(HL7.observationCategory, 'survey')] }],
    code: { coding: [codingOf(LOINC, '44261-6')], text: 'PHQ-9 total score' },
    subject: { reference: `Patient/${chart.patientId}` }, encounter: { reference: `Encounter/${visit.id}` },
    effectiveDateTime: chart.instant(visit.start + 10 * MINUTE),
    valueQuantity: { value: score, unit: 'score', system: UCUM.system, code: '{score}' },
  });
  visit.results.push(`PHQ-9 ${score}`);
}
export const depression: ClinicalModule = {
  key: 'depression', title: 'Depression', specialty: 'psychiatry', condition: DEPRESSION,
  // NIMH 2021: 8.3% of adults had a major depressive episode in the past year; women ~1.7x.
  onset: (chart) => chronicOnset(chart, byAge(chart.age, [0.11, 0.09, 0.07]) * (chart.female ? 1.3 : 0.75), 16, 10),
  run(chart, onset) {
    const visit = chart.visit(onset, { reason: 'Low mood, anhedonia and poor sleep' });
    chart.vitals(visit);
    let score = chart.rng.int(12, 21);
    phq9(chart, visit, score);
    chart.diagnose('depression', DEPRESSION, visit);
    let course = chart.prescribe(DRUGS.sertraline50, visit, { indication: 'depression' });
    chart.referral(visit, 'psychiatry', 'psychotherapy and medication management');
    chart.carePlan('depression', visit, ['SSRI with response check at 6-8 weeks (PHQ-9).', 'Cognitive behavioral therapy.', 'Safety plan reviewed; no suicidal ideation.']);
    let first = true;
    for (const t of followUps(chart, onset, 4)) {
      const fu = chart.visit(t, { specialty: 'psychiatry', reason: 'Depression follow-up', kind: chart.rng.chance(0.4) ? 'VR' : 'AMB' });
      score = Math.max(2, score - chart.rng.int(2, 7));
      phq9(chart, fu, score);
      if (first && score >= 10 && course) {
        course = chart.change(course, DRUGS.sertraline100, fu, 'partial response: dose increased');
      }
      first = false;
      chart.addressed('depression', fu, `PHQ-9 ${score}${score < 5 ? ', in remission' : ''}.`);
    }
  },
};
