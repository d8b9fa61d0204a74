// One patient's chart as an in-memory index: the resources the verifier and the evidence ranker read. Pure over a
// list of resources, so graders (HTTP reads), the server (Repository) and tests (fixtures) build it the same way.
import type { CodeableConcept, Coding, Resource } from '@medplum/fhirtypes';

/** Resource types that carry clinical facts a note can state or a question can be answered from. */
export const CHART_TYPES = [
  'Observation', 'Condition', 'MedicationRequest', 'MedicationStatement', 'AllergyIntolerance', 'ServiceRequest',
  'DiagnosticReport', 'Procedure', 'Immunization', 'DocumentReference', 'Communication', 'Encounter', 'CarePlan',
] as const;

export class PatientChart {
  private readonly byRef = new Map<string, Resource>();
  private readonly byType = new Map<string, Resource[]>();

  constructor(readonly resources: readonly Resource[]) {
    for (const r of resources) {
      if (!r.id) continue;
      this.byRef.set(`${r.resourceType}/${r.id}`, r);
      const list = this.byType.get(r.resourceType) ?? [];
      list.push(r);
      this.byType.set(r.resourceType, list);
    }
  }

  /** A resource by `Type/id` (an absolute URL or a `_history` suffix is tolerated). */
  get(reference: string): Resource | undefined {
    return this.byRef.get(localReference(reference));
  }

  ofType<T extends Resource = Resource>(type: T['resourceType']): T[] {
    return (this.byType.get(type) ?? []) as T[];
  }
}

/** `http://x/fhir/Observation/1/_history/2` -> `Observation/1`. */
export function localReference(reference: string): string {
  const m = /([A-Z][A-Za-z]+\/[A-Za-z0-9\-.]{1,64})(?:\/_history\/[^/]+)?$/.exec(reference);
  return m ? m[1] : reference;
}

export function refOf(r: Resource): string {
  return `${r.resourceType}/${r.id}`;
}

/** Does the resource belong to the patient (subject or patient reference)? */
export function belongsTo(r: Resource, patientId: string): boolean {
  const rec = r as { subject?: { reference?: string }; patient?: { reference?: string } };
  const ref = rec.subject?.reference ?? rec.patient?.reference;
  return r.resourceType === 'Patient' ? r.id === patientId : ref !== undefined && localReference(ref) === `Patient/${patientId}`;
}

/** The concept a resource is about: its code, medication, vaccine. */
export function conceptOf(r: Resource): CodeableConcept | undefined {
  const rec = r as unknown as Record<string, unknown>;
  switch (r.resourceType) {
    case 'MedicationRequest':
    case 'MedicationStatement':
      return rec.medicationCodeableConcept as CodeableConcept | undefined;
    case 'Immunization':
      return rec.vaccineCode as CodeableConcept | undefined;
    case 'DocumentReference':
      return rec.type as CodeableConcept | undefined;
    default:
      return rec.code as CodeableConcept | undefined;
  }
}

export function codingsOf(r: Resource): Coding[] {
  return conceptOf(r)?.coding ?? [];
}

/** The clinically relevant time of a resource (when measured, started, recorded, performed), ISO text. */
export function clinicalTime(r: Resource): string | undefined {
  const rec = r as unknown as Record<string, any>;
  return rec.effectiveDateTime ?? rec.effectivePeriod?.start ?? rec.effectiveInstant ?? rec.issued
    ?? rec.onsetDateTime ?? rec.onsetPeriod?.start ?? rec.recordedDate ?? rec.authoredOn ?? rec.performedDateTime
    ?? rec.performedPeriod?.start ?? rec.occurrenceDateTime ?? rec.date ?? rec.sent ?? rec.period?.start ?? rec.created
    ?? rec.meta?.lastUpdated;
}

export function timeMillis(r: Resource): number {
  const t = clinicalTime(r);
  const ms = t ? Date.parse(t) : NaN;
  return Number.isNaN(ms) ? 0 : ms;
}

/** Statuses that mean "this never happened / is void" for any resource type. */
export function isVoid(r: Resource): boolean {
  const rec = r as unknown as Record<string, any>;
  if (rec.status === 'entered-in-error' || rec.status === 'cancelled' || rec.status === 'revoked') return true;
  const ver = rec.verificationStatus?.coding?.[0]?.code;
  return ver === 'entered-in-error' || ver === 'refuted';
}
