// Demographics: the Patient resource and the baseline body (height, weight, vitals) every module builds on.
import type { Patient } from '@medplum/fhirtypes';
import type { Chart } from './chart.ts';
import { HL7, codingOf } from './codes/index.ts';
import { CITIES, FAMILY_NAMES, GIVEN_FEMALE, GIVEN_MALE, STREETS } from './names.ts';
import { DAY, YEAR, formatDate } from './time.ts';

/** US age structure, roughly (Census 2020): children 22%, then adults by band. */
const AGE_BANDS: [min: number, max: number, weight: number][] = [
  [0, 17, 15], [18, 29, 15], [30, 44, 19], [45, 64, 27], [65, 79, 18], [80, 95, 6],
];

export function buildPatient(chart: Chart): Patient {
  const rng = chart.rng;
  chart.sex = rng.chance(0.51) ? 'female' : 'male';
  const [min, max] = rng.weighted(AGE_BANDS.map((b) => [b, b[2]] as const));
  const age = rng.between(min, max + 1);
  chart.birth = Math.floor((chart.ref - age * YEAR) / DAY) * DAY;
  const given = rng.pick(chart.female ? GIVEN_FEMALE : GIVEN_MALE);
  const middle = rng.pick(chart.female ? GIVEN_FEMALE : GIVEN_MALE);
  const family = rng.pick(FAMILY_NAMES);
  chart.name = `${given} ${family}`;
  chart.mrn = `MRN${String(chart.ctx.seed).padStart(2, '0')}${String(chart.ctx.index + 1).padStart(7, '0')}`;
  const [city, state, zip, offset] = rng.pick(CITIES);
  chart.tzOffset = offset;
  const language = rng.weighted([['en', 85], ['es', 11], ['zh', 2], ['vi', 2]] as const);
  const adult = age >= 18;
  const patient: Patient = {
    resourceType: 'Patient', id: chart.patientId, active: true,
    identifier: [
      { use: 'usual', type: { coding: [codingOf(HL7.identifierType, 'MR')], text: 'MRN' }, system: 'http://ehr-gym.example/fhir/NamingSystem/mrn', value: chart.mrn },
    ],
    name: [{ use: 'official', family, given: [given, middle] }],
    telecom: [
      { system: 'phone', value: `555-${String(rng.int(100, 999))}-${String(rng.int(1000, 9999))}`, use: rng.chance(0.7) ? 'mobile' : 'home' },
      ...(adult ? [{ system: 'email' as const, value: `${given}.${family}${chart.ctx.index}@example.com`.toLowerCase(), use: 'home' as const }] : []),
    ],
    gender: chart.sex,
    birthDate: formatDate(chart.birth),
    address: [{ use: 'home', line: [`${rng.int(10, 9999)} ${rng.pick(STREETS)}`], city, state, postalCode: zip, country: 'US' }],
    maritalStatus: adult ? { coding: [codingOf(HL7.marital, rng.weighted([['M', 50], ['S', 30], ['D', 12], ['W', age > 65 ? 15 : 2]] as const))] } : undefined,
    communication: [{ language: { coding: [codingOf(HL7.language, language)], text: HL7.language.concepts[language] }, preferred: true }],
    generalPractitioner: [{ reference: `Practitioner/${chart.primaryCare().practitionerId}`, display: chart.primaryCare().name }],
    managingOrganization: { reference: `Organization/${chart.ctx.staff.healthSystemId}` },
  };
  if (!patient.maritalStatus) delete patient.maritalStatus;
  baselineBody(chart);
  return patient;
}

/** Body and vital-sign baselines, plus the lab effects of drugs that any module may prescribe. */
function baselineBody(chart: Chart): void {
  const rng = chart.rng;
  const adultHeight = chart.female ? rng.normal(162, 7) : rng.normal(176, 7.5);
  chart.bmi = Math.max(17, rng.normal(28.5, 5.5));
  const heightAt = (t: number) => {
    const a = chart.ageAt(t);
    return a >= 18 ? adultHeight : Math.max(50, 50 + (adultHeight - 50) * Math.min(1, a / 17));
  };
  chart.modify('HEIGHT', (t) => heightAt(t));
  chart.modify('WEIGHT', (t) => {
    const a = chart.ageAt(t);
    const bmi = a >= 18 ? chart.bmi : 16 + (chart.bmi - 16) * Math.min(1, a / 18);
    return bmi * (heightAt(t) / 100) ** 2;
  });
  const sbp = rng.normal(118, 8);
  chart.modify('SBP', (t) => sbp + Math.max(0, chart.ageAt(t) - 40) * 0.35);
  chart.modify('DBP', (t) => chart.expected('SBP', t) * 0.55 + 12);
  const hr = rng.normal(72, 7);
  chart.modify('HR', () => hr);
  chart.modify('SPO2', () => 98);
  // eGFR falls about 1 mL/min/1.73m2 a year after 40 in healthy adults.
  chart.modify('EGFR', (t, v) => v - Math.max(0, chart.ageAt(t) - 40) * 0.9);
  // Drug-lab interactions: every module's prescriptions act on the same physiology.
  const on = (rxIngredient: string, t: number) => chart.onMed(rxIngredient, t);
  chart.modify('K', (t, v) => v + (on('29046', t) || on('52175', t) ? 0.35 : 0) + (on('9997', t) ? 0.4 : 0) - (on('4603', t) ? 0.35 : 0) - (on('5487', t) ? 0.25 : 0));
  chart.modify('INR', (t, v) => (on('11289', t) ? 2.5 + chart.rng.normal(0, 0.45) : v));
  chart.modify('LDL', (t, v) => (on('83367', t) || on('301542', t) ? v * 0.55 : v));
  chart.modify('CHOL', (t, v) => (on('83367', t) || on('301542', t) ? v * 0.7 : v));
  chart.modify('GLU', (t, v) => v + Math.max(0, chart.expected('A1C', t) - 5.3) * 28.7);
  chart.modify('CREAT', (t) => creatinineFromEgfr(chart.expected('EGFR', t), chart.ageAt(t), chart.female));
  chart.modify('BUN', (t, v) => v + Math.max(0, 60 - chart.expected('EGFR', t)) * 0.35);
  chart.modify('URIC', (t, v) => (on('519', t) ? v * 0.65 : v) + (on('5487', t) || on('4603', t) ? 0.8 : 0));
  chart.modify('NA', (t, v) => v - (on('5487', t) ? 2 : 0));
  chart.modify('HCT', (t) => chart.expected('HGB', t) * 3);
}

/** Invert the MDRD study equation: creatinine (mg/dL) that gives this eGFR. */
export function creatinineFromEgfr(egfr: number, age: number, female: boolean): number {
  const k = 175 * Math.pow(Math.max(age, 18), -0.203) * (female ? 0.742 : 1);
  return Math.pow(Math.max(egfr, 5) / k, -1 / 1.154);
}
