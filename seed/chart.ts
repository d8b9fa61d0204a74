// One patient's chart while it is being generated: the facade the modules use. The state they read and write
// (chart/state.ts: conditions, medication courses, allergies, physiology, visits) plus one method per kind of
// resource, each a builder in chart/ (conditions, observations, medications, orders, encounters, notes; the
// messy-EHR defects in chart/mess.ts). Modules never build resources by hand, so every resource of a kind has the
// same shape and every code comes from seed/codes.
import type { Observation, Resource } from '@medplum/fhirtypes';
import type { LabKey, PanelKey } from './codes/labs.ts';
import type { Clinician, Specialty } from './staff.ts';
import { addressed, diagnose, resolve } from './chart/conditions.ts';
import { encounterOf, scheduleVisit, type VisitOptions } from './chart/encounters.ts';
import { change, medicationRequest, prescribe, stop, type PrescribeOptions } from './chart/medications.ts';
import { document, visitNote } from './chart/notes.ts';
import { deferredTest, lab, panel, singleTest, vitals } from './chart/observations.ts';
import { appointment, carePlan, futureOrder, imaging, pathology, procedure, referral, type ReportCode } from './chart/orders.ts';
import { ChartState } from './chart/state.ts';
import type { ConditionRecord, ConditionSpec, Drug, MedCourse, Visit } from './chart/types.ts';

export type { ChartContext, ConditionRecord, ConditionSpec, Drug, MedCourse, Sex, Visit, VisitKind } from './chart/types.ts';
export type { Modifier } from './chart/physiology.ts';

export class Chart extends ChartState {
  // ---- encounters --------------------------------------------------------------------------------------------

  visit(t: number, options: VisitOptions): Visit {
    return scheduleVisit(this, t, options);
  }

  // ---- conditions --------------------------------------------------------------------------------------------

  diagnose(key: string, spec: ConditionSpec, visit: Visit, options: { abated?: number } = {}): ConditionRecord {
    return diagnose(this, key, spec, visit, options);
  }

  /** Mark an already written problem-list Condition resolved at t (e.g. a CKD stage superseded by the next). */
  resolve(conditionId: string, t: number): void {
    resolve(this, conditionId, t);
  }

  /** An encounter diagnosis (follow-up visit addressing a known problem). */
  addressed(key: string, visit: Visit, line?: string): void {
    addressed(this, key, visit, line);
  }

  // ---- observations ------------------------------------------------------------------------------------------

  /** One lab result. `reliable` results are never degraded by the mess (diagnostic evidence the tests rely on). */
  lab(visit: Visit, key: LabKey, options: { value?: number; reliable?: boolean; at?: number } = {}): Observation | undefined {
    return lab(this, visit, key, options);
  }

  /**
   * A lab panel: ServiceRequest (order) -> Observations -> DiagnosticReport that references them. Drawn once every
   * module has run, so it reads the whole chart's physiology and medication list.
   */
  panel(visit: Visit, key: PanelKey, options: { reliable?: boolean } = {}): void {
    panel(this, visit, key, options);
  }

  /** A single-test order with its report (A1c, TSH, INR ...), drawn once every module has run (like panel). */
  test(visit: Visit, key: LabKey, options: { value?: number; reliable?: boolean } = {}): void {
    deferredTest(this, visit, key, options);
  }

  /**
   * A single test drawn now, for a module that decides on its value (INR dosing, TSH titration, A1c stepping):
   * it sees the drugs modules that ran so far have started.
   */
  testResult(visit: Visit, key: LabKey, options: { value?: number; reliable?: boolean } = {}): Observation | undefined {
    return singleTest(this, visit, key, options);
  }

  /** Vital signs per the FHIR R4 vital-signs profile, BP as a panel with systolic/diastolic components. */
  vitals(visit: Visit): void {
    vitals(this, visit);
  }

  // ---- medications -------------------------------------------------------------------------------------------

  /** Start a medication course; undefined when the patient is allergic to an ingredient. */
  prescribe(drug: Drug, visit: Visit, options: PrescribeOptions = {}): MedCourse | undefined {
    return prescribe(this, drug, visit, options);
  }

  /** Stop a course at t (status history: stopped with a reason). */
  stop(course: MedCourse, t: number, reason: { code: string; text: string }, visit?: Visit): void {
    stop(course, t, reason, visit);
  }

  /** Change dose: the old order stops ("dose changed"), a new one starts referring to it (priorPrescription). */
  change(course: MedCourse, drug: Drug, visit: Visit, why: string): MedCourse | undefined {
    return change(this, course, drug, visit, why);
  }

  // ---- orders, procedures, imaging, care plans ----------------------------------------------------------------

  referral(visit: Visit, to: Specialty, reason: string): void {
    referral(this, visit, to, reason);
  }

  /** An imaging study: order, procedure, report with conclusion, and the imaging report document. */
  imaging(visit: Visit, procedure: string, reportCode: ReportCode, conclusion: string, reason?: string): void {
    imaging(this, visit, procedure, reportCode, conclusion, reason);
  }

  /** An open lab order to be drawn before a future visit (status active, occurrence after the reference date). */
  futureOrder(lab: LabKey | PanelKey, at: number, clinician: Clinician, reasonKey?: string): void {
    futureOrder(this, lab, at, clinician, reasonKey);
  }

  /** A biopsy with its surgical pathology report (DiagnosticReport with conclusion, and the report document). */
  pathology(visit: Visit, site: string, conclusion: string): void {
    pathology(this, visit, site, conclusion);
  }

  procedure(visit: Visit, code: string, note?: string): void {
    procedure(this, visit, code, note);
  }

  carePlan(key: string, visit: Visit, activities: string[]): void {
    carePlan(this, key, visit, activities);
  }

  /** A future appointment (booked, after the reference date) with the visit's clinician. */
  appointment(at: number, clinician: Clinician, description: string, reasonKey?: string): void {
    appointment(this, at, clinician, description, reasonKey);
  }

  document(visit: Visit, loinc: string, text: string, at: number, author: Clinician, title: string): void {
    document(this, visit, loinc, text, at, author, title);
  }

  // ---- finishing ----------------------------------------------------------------------------------------------

  /** Emit the encounters, medication orders and notes accumulated in the state. */
  finish(): Resource[] {
    this.settle();
    for (const c of this.courses) this.resources.push(medicationRequest(this, c));
    for (const v of this.visits) {
      this.resources.push(encounterOf(this, v));
      if (!v.silent) visitNote(this, v);
    }
    return this.resources;
  }
}
