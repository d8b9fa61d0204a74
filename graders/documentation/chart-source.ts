// Reading a patient's chart for verification: through the session's FHIR API (graders, over HTTP, so the reads are
// the grader's own and never the agent's) or from resources already in memory.
import type { Resource } from '@medplum/fhirtypes';
import type { FhirClient } from '../../contracts/fhir-client.ts';
import { PatientChart } from '../../resources/evidence/chart.ts';

/** The types a note's claims are verified against, with the search parameter naming the patient. */
export const VERIFIED_TYPES: [type: string, patientParam: string][] = [
  ['Observation', 'patient'], ['Condition', 'patient'], ['MedicationRequest', 'patient'], ['MedicationStatement', 'patient'],
  ['AllergyIntolerance', 'patient'], ['ServiceRequest', 'patient'], ['DiagnosticReport', 'patient'], ['Procedure', 'patient'],
];

/** The patient's chart as the session holds it now (the final state, when a grader calls it). */
export async function chartFromFhir(fhir: FhirClient, patient: string): Promise<PatientChart> {
  const resources: Resource[] = [];
  for (const [type, param] of VERIFIED_TYPES) resources.push(...await fhir.search(type, { [param]: patient, _count: 1000 }, { maxPages: 1000 }));
  return new PatientChart(resources);
}
