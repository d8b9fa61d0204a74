// Patient binding: a task's variants are the patients of the current dataset (plus its fixture) that satisfy the
// binding. Evaluated in a scratch session over HTTP, so it sees exactly what an episode's session will see.
import type { Resource } from '@medplum/fhirtypes';
import { referenceId, type SearchParams, type FhirClient } from '../contracts/fhir-client.ts';
import type { GymClient } from './gym-client.ts';
import type { BindingCriterion, Task } from '../contracts/task.ts';
import { patientSplit, taskSplit } from '../contracts/splits.ts';

export const POPULATION_VARIANT = 'population';
const DEFAULT_MAX_VARIANTS = 5;

/** Replace `{patient}` in every parameter value. */
export function substitutePatient(params: Record<string, string | string[]>, patient: string): SearchParams {
  const out: SearchParams = {};
  for (const [name, value] of Object.entries(params)) {
    out[name] = Array.isArray(value) ? value.map((v) => v.replaceAll('{patient}', patient)) : value.replaceAll('{patient}', patient);
  }
  return out;
}

/** Patient ids from a candidate search: Patient results themselves, or the patient each result points at. */
export function candidateIds(resources: Resource[], reference?: string): string[] {
  const ids = new Set<string>();
  for (const r of resources) {
    if (r.resourceType === 'Patient') {
      if (r.id) ids.add(r.id);
      continue;
    }
    const loose = r as unknown as Record<string, { reference?: string } | undefined>;
    const ref = reference ? loose[reference] : (loose.subject ?? loose.patient);
    const id = referenceId(ref?.reference, 'Patient');
    if (id) ids.add(id);
  }
  return [...ids].sort();
}

async function satisfies(fhir: FhirClient, criterion: BindingCriterion, patient: string): Promise<boolean> {
  const bundle = await fhir.searchBundle(criterion.resourceType, { ...substitutePatient(criterion.params, patient), _count: 1 });
  const found = (bundle.entry ?? []).some((e) => (e.search?.mode ?? 'match') === 'match');
  return criterion.absent ? !found : found;
}

/**
 * The variant patient ids of a task on the server's dataset, sorted, at most `binding.maxVariants`: the first
 * candidates (by sorted id) that satisfy the binding, except that a task whose variants are partitioned by patient
 * (contracts/splits.ts) keeps its last slot for a patient of the split the others lack, so its variants come from
 * both train and test whenever the population has a qualifying patient of each.
 */
export async function findVariants(task: Task, gym: GymClient): Promise<string[]> {
  if (task.spec.level === 'population') return [POPULATION_VARIANT];
  const partitioned = taskSplit(task.spec) === 'by-patient';
  const session = await gym.createSession({ now: task.spec.now, ...(task.fixture ? { fixture: task.fixture } : {}) });
  try {
    const fhir = gym.fhirClient(session.fhirBaseUrl);
    const binding = task.spec.binding;
    const source = binding.candidates ?? { resourceType: 'Patient' };
    const found = await fhir.search(source.resourceType, { _count: 1000, ...substitutePatient(source.params ?? {}, '') }, { maxPages: 1000 });
    const max = binding.maxVariants ?? DEFAULT_MAX_VARIANTS;
    const qualifies = async (patient: string): Promise<boolean> => {
      for (const criterion of binding.criteria ?? []) if (!(await satisfies(fhir, criterion, patient))) return false;
      if (binding.select && task.grader.select) return task.grader.select({ fhir, patient, now: session.now, task: task.spec });
      return true;
    };
    const variants: string[] = [];
    /** A qualifying patient passed over for the last slot, taken when no patient of the missing split qualifies. */
    let passedOver: string | undefined;
    for (const patient of candidateIds(found, source.reference)) {
      const seen = new Set(variants.map(patientSplit));
      const lastSlotReserved = partitioned && max > 1 && variants.length === max - 1 && seen.size === 1;
      if (lastSlotReserved && seen.has(patientSplit(patient))) {
        if (passedOver === undefined && (await qualifies(patient))) passedOver = patient;
        continue;
      }
      if (await qualifies(patient)) variants.push(patient);
      if (variants.length >= max) break;
    }
    if (variants.length < max && passedOver !== undefined) variants.push(passedOver);
    return variants.sort();
  } finally {
    await gym.deleteSession(session.id).catch(() => undefined);
  }
}

export function instructionFor(task: Task, patient: string): string {
  return task.spec.instruction.replaceAll('{patient}', patient);
}
