// The population generator: a stream of charts, one patient at a time (memory stays flat in N). Each patient draws
// from its own PRNG stream seeded by (seed, index), so a patient's chart never depends on the others.
import type { Resource } from '@medplum/fhirtypes';
import { Chart } from './chart.ts';
import { DEFAULT_MESS, type MessRates } from './mess.ts';
import { MODULES, ONSET_ORDER } from './modules/index.ts';
import { buildPatient } from './patient.ts';
import { Rng } from './random.ts';
import { buildStaff, type Staff } from './staff.ts';
import { DEFAULT_REFERENCE_DATE } from './time.ts';

export interface PopulationOptions {
  patients: number;
  seed: number;
  /** ISO instant every chart ends at (default DEFAULT_REFERENCE_DATE). */
  referenceDate?: string;
  mess?: MessRates;
}

export interface PatientSummary {
  id: string;
  age: number;
  sex: 'male' | 'female';
  /** Module keys of the conditions ever diagnosed. */
  conditions: string[];
}

export interface GeneratedBatch {
  resources: Resource[];
  /** Undefined for the shared staff batch that comes first. */
  patient?: PatientSummary;
}

/** One patient's full chart. */
export function generatePatient(index: number, staff: Staff, options: PopulationOptions): GeneratedBatch {
  const reference = Date.parse(options.referenceDate ?? DEFAULT_REFERENCE_DATE);
  const chart = new Chart({ seed: options.seed, index, reference, mess: options.mess ?? DEFAULT_MESS, staff });
  const patient = buildPatient(chart);
  const planned = new Map<string, number>();
  for (const module of ONSET_ORDER) {
    const onset = module.onset(chart, planned);
    if (onset !== undefined && onset <= reference) planned.set(module.key, onset);
  }
  // Every disease acts on the one physiology before any module draws a result from it (own stream: see physiology).
  const physiologyRng = new Rng(`${options.seed}/physiology/${index}`);
  for (const module of MODULES) {
    const onset = planned.get(module.key);
    if (onset !== undefined) module.physiology?.(chart, onset, physiologyRng);
  }
  for (const module of MODULES) {
    const onset = planned.get(module.key);
    if (onset !== undefined) module.run(chart, onset);
  }
  const resources = [patient as Resource, ...chart.finish()];
  return {
    resources,
    patient: { id: chart.patientId, age: chart.age, sex: chart.sex, conditions: [...chart.conditions.keys()] },
  };
}

/** The staff batch, then each patient's chart in index order. */
export function* generatePopulation(options: PopulationOptions): Generator<GeneratedBatch> {
  const staff = buildStaff(options.seed);
  yield { resources: staff.resources };
  for (let i = 0; i < options.patients; i++) yield generatePatient(i, staff, options);
}
