// Primary care over the years: yearly physicals with vitals and screening labs, smoking-status observations
// (US Core), screening mammograms and colonoscopies, and immunizations by the CDC schedules (CVX).
import type { Immunization, Observation } from '@medplum/fhirtypes';
import type { ClinicalModule } from './module.ts';
import { historyStart } from './module.ts';
import { CVX, HL7, LOINC, SNOMED, codingOf } from '../codes/index.ts';
import type { Chart, Visit } from '../chart.ts';
import { VACCINE_AUTHORISED } from '../coherence.ts';
import { DAY, MINUTE, YEAR } from '../time.ts';

function smokingStatus(chart: Chart, visit: Visit): void {
  const code = chart.smoking === 'current' ? '449868002' : chart.smoking === 'former' ? '8517006' : '266919005';
  chart.resources.push({
    resourceType: 'Observation', id: chart.newId('obs'), status: 'final',
    category: [{ coding: [codingOf(HL7.observationCategory, 'social-history')] }],
    code: { coding: [codingOf(LOINC, '72166-2')], text: 'Tobacco smoking status' },
    subject: { reference: `Patient/${chart.patientId}` }, encounter: { reference: `Encounter/${visit.id}` },
    effectiveDateTime: chart.instant(visit.start + 3 * MINUTE),
    valueCodeableConcept: { coding: [codingOf(SNOMED, code)], text: SNOMED.concepts[code] },
  } satisfies Observation);
  if (chart.smoking === 'current') visit.plan.push('Tobacco cessation counselling (more than 3 minutes); offered nicotine replacement.');
}

/** The vaccine given before one was licensed: Td before Tdap, quadrivalent HPV before HPV9 (none before that). */
const PREDECESSOR: Record<string, string> = { '115': '113', '165': '62' };

/** The scheduled vaccine, or its predecessor when it was not yet authorised at t; undefined when none was. */
function availableVaccine(cvx: string, t: number): string | undefined {
  for (let code: string | undefined = cvx; code; code = PREDECESSOR[code]) {
    const from = VACCINE_AUTHORISED[code];
    if (!from || t >= Date.parse(from)) return code;
  }
  return undefined;
}

function immunize(chart: Chart, visit: Visit, scheduled: string): void {
  const t = visit.start + 15 * MINUTE;
  const cvx = availableVaccine(scheduled, t);
  if (!cvx) return;
  chart.resources.push({
    resourceType: 'Immunization', id: chart.newId('imm'), status: 'completed',
    vaccineCode: { coding: [codingOf(CVX, cvx)], text: CVX.concepts[cvx] },
    patient: { reference: `Patient/${chart.patientId}` }, encounter: { reference: `Encounter/${visit.id}` },
    occurrenceDateTime: chart.instant(t), recorded: chart.instant(t), primarySource: true,
    lotNumber: `L${chart.rng.int(100000, 999999)}`,
    performer: [{ actor: { reference: `Practitioner/${visit.clinician.practitionerId}` } }],
  } satisfies Immunization);
  visit.plan.push(`Immunization given: ${CVX.concepts[cvx]}.`);
}

/** Childhood series (CDC schedule, abbreviated) recorded as historical immunizations at well-child visits. */
function childhoodSeries(chart: Chart): void {
  const schedule: [ageMonths: number, cvx: string[]][] = [[2, ['08', '20', '10']], [4, ['20', '10']], [6, ['08', '20']], [12, ['03', '21']], [48, ['20', '10', '03', '21']], [132, ['115', '165']]];
  for (const [months, vaccines] of schedule) {
    const t = chart.birth + months * 30.4 * DAY;
    if (t > chart.ref - 7 * DAY) break;
    if (t < chart.ref - 25 * YEAR) continue; // very old records were not migrated into this EHR
    const visit = chart.visit(t, { specialty: 'pediatrics', reason: 'Well-child visit', type: '162673000' });
    visit.silent = months < 48;
    if (months >= 48) chart.vitals(visit);
    for (const cvx of vaccines) immunize(chart, visit, cvx);
  }
}

export const wellness: ClinicalModule = {
  key: 'wellness', title: 'Preventive care', specialty: 'primaryCare',
  onset: (chart) => chart.birth,
  run(chart) {
    childhoodSeries(chart);
    const start = historyStart(chart);
    let t = start + chart.rng.between(0, 300) * DAY;
    let index = 0;
    let covidOffered = false;
    while (t < chart.ref - 7 * DAY) {
      const age = chart.ageAt(t);
      const visit = chart.visit(t, { specialty: age < 18 ? 'pediatrics' : undefined, reason: age < 18 ? 'Well-child visit' : 'Annual physical examination', type: '162673000' });
      chart.vitals(visit);
      if (age >= 12) smokingStatus(chart, visit);
      if (age >= 18) {
        if (age >= 40 || chart.rng.chance(0.4)) chart.panel(visit, 'CMP');
        if (chart.rng.chance(0.5)) chart.panel(visit, 'CBC');
        if (age >= 35 && index % 3 === 0) chart.panel(visit, 'LIPID');
        if (age >= 35 && chart.bmi >= 25 && index % 3 === 1 && !chart.has('diabetes', t)) chart.test(visit, 'A1C');
        if (age >= 50 && age < 75 && index === 1 && chart.rng.chance(0.3)) chart.procedure(visit, '73761001', 'screening colonoscopy: no polyps');
        if (chart.female && age >= 50 && age < 75 && index % 2 === 0 && !chart.has('breastCancer', t)) {
          chart.imaging(visit, '71651007', { table: 'SNOMED', code: '71651007' }, 'No suspicious mass, calcification or architectural distortion. BI-RADS 1: negative.', 'screening mammogram');
        }
        immunize(chart, visit, '140');
        // COVID-19 mRNA: offered at the first physical after its authorisation (accepted by ~60%).
        if (!covidOffered && t >= Date.parse(VACCINE_AUTHORISED['208'])) {
          covidOffered = true;
          if (chart.rng.chance(0.6)) immunize(chart, visit, '208');
        }
        if (age >= 65 && index === 0) immunize(chart, visit, '133');
        if (age >= 50 && index === 1 && chart.rng.chance(0.5)) immunize(chart, visit, '187');
        if (index === 2 && chart.rng.chance(0.3)) immunize(chart, visit, '113');
        for (const key of chart.conditions.keys()) if (chart.has(key, t) && key !== 'acuteInfection') chart.addressed(key, visit);
      } else if (chart.rng.chance(0.8)) {
        immunize(chart, visit, '140');
      }
      t += YEAR * chart.rng.between(0.9, 1.15);
      index++;
    }
    chart.appointment(chart.ref + chart.rng.between(30, 330) * DAY, chart.primaryCare(), 'Annual physical examination');
  },
};
