// Patient binding: a task's variants are the patients of the current dataset (plus its fixture) that satisfy the
// binding. Evaluated in a scratch session over HTTP, so it sees exactly what an episode's session will see.
import type { Resource } from '@medplum/fhirtypes';
import { referenceId, type SearchParams, type FhirClient } from '../contracts/fhir-client.ts';
import type { GymClient } from './gym-client.ts';
import type { BindingCriterion, Task } from '../contracts/task.ts';

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

/** The variant patient ids of a task on the server's dataset, sorted, at most `binding.maxVariants`. */
export async function findVariants(task: Task, gym: GymClient): Promise<string[]> {
  if (task.spec.level === 'population') return [POPULATION_VARIANT];
  const session = await gym.createSession({ now: task.spec.now, ...(task.fixture ? { fixture: task.fixture } : {}) });
  try {
    const fhir = gym.fhirClient(session.fhirBaseUrl);
    const binding = task.spec.binding;
    const source = binding.candidates ?? { resourceType: 'Patient' };
    const found = await fhir.search(source.resourceType, { _count: 1000, ...substitutePatient(source.params ?? {}, '') }, { maxPages: 1000 });
    const max = binding.maxVariants ?? DEFAULT_MAX_VARIANTS;
    const variants: string[] = [];
    for (const patient of candidateIds(found, source.reference)) {
      let ok = true;
      for (const criterion of binding.criteria ?? []) {
        if (!(await satisfies(fhir, criterion, patient))) {
          ok = false;
          break;
        }
      }
      if (ok && binding.select && task.grader.select) ok = await task.grader.select({ fhir, patient, now: session.now, task: task.spec });
      if (ok) variants.push(patient);
      if (variants.length >= max) break;
    }
    return variants;
  } finally {
    await gym.deleteSession(session.id).catch(() => undefined);
  }
}

export function instructionFor(task: Task, patient: string): string {
  return task.spec.instruction.replaceAll('{patient}', patient);
}
