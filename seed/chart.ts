// One patient's chart while it is being generated: the shared clinical state the modules read and write (conditions,
// medication courses, allergies, lab physiology) and the builders that turn it into FHIR resources. Modules never
// build resources by hand, so every resource of a kind has the same shape and every code comes from seed/codes.
import type {
  CodeableConcept, Condition, DiagnosticReport, DocumentReference, Encounter, MedicationRequest, Observation, Reference,
  Resource, ServiceRequest,
} from '@medplum/fhirtypes';
import { HL7, LOINC, SNOMED, ICD10CM, RXNORM, UCUM, FLOWSHEET, codingOf, ingredientsOf, type CodeTable } from './codes/index.ts';
import { LABS, PANELS, interpret, round, type LabKey, type PanelKey, type LabDef } from './codes/labs.ts';
import type { MessRates } from './mess.ts';
import { Rng } from './random.ts';
import { SPECIALTIES, type Clinician, type Specialty, type Staff } from './staff.ts';
import { DAY, HOUR, MINUTE, YEAR, formatDate, formatInstant } from './time.ts';

export type Sex = 'male' | 'female';
export type VisitKind = 'AMB' | 'EMER' | 'IMP' | 'VR';

export interface Visit {
  id: string;
  kind: VisitKind;
  start: number;
  end: number;
  clinician: Clinician;
  typeCode: string;
  reasonText: string;
  /** Conditions addressed (Encounter.diagnosis). */
  diagnoses: string[];
  /** Note content, written from the structured data as it is produced. */
  problems: string[];
  results: string[];
  plan: string[];
  vitalsText?: string;
  /** Measured blood pressure, when vitals were taken. */
  bp?: [systolic: number, diastolic: number];
  noteType: '11506-3' | '11488-4' | '18842-5' | '34117-2';
  /** No note at all for this visit. */
  silent?: boolean;
}

export interface ConditionSpec {
  icd: string;
  snomed: string;
  text: string;
}

export interface ConditionRecord extends ConditionSpec {
  key: string;
  id: string;
  onset: number;
  abated?: number;
  visit?: Visit;
}

export interface Drug {
  rxcui: string;
  /** Product as prescribed, e.g. "metformin 500 MG Oral Tablet". */
  product: string;
  dose: number;
  doseUnit: string;
  /** Times per day (per week when `weekly`); 0 = as needed. */
  perDay: number;
  /** Dosed weekly (alendronate, methotrexate): structured timing is per week, GTS code WK. */
  weekly?: boolean;
  route: 'oral' | 'inhaled' | 'subcutaneous';
  sig: string;
  /** Supply per fill, in dose units. */
  supply?: number;
}

export interface MedCourse {
  id: string;
  drug: Drug;
  start: number;
  end?: number;
  stopReason?: { code: string; text: string };
  indication?: string;
  prescriber: Clinician;
  visit?: Visit;
  prior?: string;
  /** Short courses (antibiotics) complete rather than stop. */
  completes?: boolean;
}

export type Modifier = (t: number, value: number) => number;

export interface ChartContext {
  seed: number;
  index: number;
  reference: number;
  mess: MessRates;
  staff: Staff;
}

const ROUTES = { oral: '26643006', inhaled: '447694001', subcutaneous: '34206005' } as const;
const GTS: Record<number, string> = { 1: 'QD', 2: 'BID', 3: 'TID', 0: 'PRN' };

const cc = (table: CodeTable, code: string, text?: string): CodeableConcept =>
  text ? { coding: [codingOf(table, code)], text } : { coding: [codingOf(table, code)] };
// Typed loosely: medplum types references by target, we build them from strings.
const ref = (type: string, id: string, display?: string): Reference<any> => (display ? { reference: `${type}/${id}`, display } : { reference: `${type}/${id}` });

export class Chart {
  readonly rng: Rng;
  /** Messiness draws come from their own stream, so --clean changes the mess and nothing else. */
  readonly messRng: Rng;
  readonly patientId: string;
  readonly ref: number;
  readonly mess: MessRates;
  readonly staff: Staff;
  sex: Sex = 'female';
  birth = 0;
  name = '';
  mrn = '';
  /** Minutes from UTC of the patient's home clinic (standard time). */
  tzOffset = -360;
  smoking: 'current' | 'former' | 'never' = 'never';
  bmi = 26;
  readonly conditions = new Map<string, ConditionRecord>();
  readonly courses: MedCourse[] = [];
  /** Allergen ingredient RXCUIs. */
  readonly allergies = new Set<string>();
  readonly visits: Visit[] = [];
  readonly resources: Resource[] = [];
  /** Flags modules leave for each other (e.g. 'hf-reduced-ef'). */
  readonly flags = new Set<string>();
  private readonly modifiers = new Map<string, Modifier[]>();
  private readonly baselines = new Map<string, number>();
  private counter = 0;
  private readonly pcp: Clinician;

  constructor(readonly ctx: ChartContext) {
    this.rng = new Rng(`${ctx.seed}/patient/${ctx.index}`);
    this.messRng = new Rng(`${ctx.seed}/mess/${ctx.index}`);
    this.patientId = `s${ctx.seed}-p${ctx.index}`;
    this.ref = ctx.reference;
    this.mess = ctx.mess;
    this.staff = ctx.staff;
    this.pcp = this.rng.pick(ctx.staff.bySpecialty.primaryCare);
  }

  // ---- identity and time -------------------------------------------------------------------------------------

  /** A deterministic id: patient id + running counter (valid FHIR id, [A-Za-z0-9-.]{1,64}). */
  newId(kind: string): string {
    return `${this.patientId}-${kind}${++this.counter}`;
  }

  get female(): boolean {
    return this.sex === 'female';
  }

  ageAt(t: number): number {
    return (t - this.birth) / YEAR;
  }

  get age(): number {
    return this.ageAt(this.ref);
  }

  /** An instant in the patient's local zone, or (messy) in UTC: real feeds mix the two. */
  instant(t: number): string {
    return this.mess.tzOffset > 0 && this.messRng.chance(this.mess.tzOffset) ? formatInstant(t, this.tzOffset) : formatInstant(t);
  }

  /** Clinic hours on the given day (8:00-16:30 local). */
  clinicTime(t: number): number {
    const localMidnight = Math.floor((t + this.tzOffset * MINUTE) / DAY) * DAY - this.tzOffset * MINUTE;
    return localMidnight + 8 * HOUR + this.rng.int(0, 34) * 15 * MINUTE;
  }

  primaryCare(): Clinician {
    return this.pcp;
  }

  clinician(specialty: Specialty): Clinician {
    const list = this.ctx.staff.bySpecialty[specialty];
    return list[this.ctx.index % list.length];
  }

  // ---- shared clinical state ---------------------------------------------------------------------------------

  has(key: string, t = this.ref): boolean {
    const c = this.conditions.get(key);
    return !!c && c.onset <= t && (c.abated === undefined || c.abated > t);
  }

  onsetOf(key: string): number | undefined {
    return this.conditions.get(key)?.onset;
  }

  onMed(ingredient: string, t: number): boolean {
    return this.courses.some((c) => c.start <= t && (c.end === undefined || c.end > t) && ingredientsOf(c.drug.rxcui).includes(ingredient));
  }

  activeCourse(ingredient: string, t: number): MedCourse | undefined {
    return this.courses.find((c) => c.start <= t && (c.end === undefined || c.end > t) && ingredientsOf(c.drug.rxcui).includes(ingredient));
  }

  isAllergicTo(rxcui: string): boolean {
    return ingredientsOf(rxcui).some((i) => this.allergies.has(i));
  }

  /** Make a lab or vital respond to disease or treatment: modifiers apply in registration order. */
  modify(key: string, fn: Modifier): void {
    const list = this.modifiers.get(key) ?? [];
    list.push(fn);
    this.modifiers.set(key, list);
  }

  private baseline(key: string): number {
    let b = this.baselines.get(key);
    if (b === undefined) {
      const def = (LABS as Record<string, LabDef>)[key];
      const normal = def ? (this.female && def.female ? def.female.normal : def.normal) : [0, 0];
      b = this.rng.normal(normal[0], normal[1] * 0.7);
      this.baselines.set(key, b);
    }
    return b;
  }

  /** The value the physiology predicts at t, without measurement noise. */
  expected(key: string, t: number): number {
    let v = this.baseline(key);
    for (const fn of this.modifiers.get(key) ?? []) v = fn(t, v);
    return v;
  }

  /** A measured value: expected plus measurement noise. */
  measure(key: string, t: number): number {
    const def = (LABS as Record<string, LabDef>)[key];
    const sd = def ? (def.normal[1] * 0.3) : 0;
    return this.expected(key, t) + this.rng.normal(0, sd);
  }

  // ---- encounters --------------------------------------------------------------------------------------------

  visit(t: number, options: { kind?: VisitKind; specialty?: Specialty; clinician?: Clinician; type?: string; reason: string; days?: number }): Visit {
    const kind = options.kind ?? 'AMB';
    const clinician = options.clinician ?? (options.specialty ? this.clinician(options.specialty) : this.pcp);
    const start = kind === 'AMB' || kind === 'VR' ? this.clinicTime(t) : t;
    const end = kind === 'IMP' ? start + (options.days ?? 3) * DAY : start + (kind === 'EMER' ? 4 * HOUR : 30 * MINUTE);
    const typeCode = options.type ?? { AMB: '390906007', EMER: '50849002', IMP: '32485007', VR: '448337001' }[kind];
    const v: Visit = {
      id: this.newId('enc'), kind, start, end, clinician, typeCode, reasonText: options.reason, diagnoses: [],
      problems: [], results: [], plan: [],
      noteType: kind === 'IMP' ? '18842-5' : clinician.specialty === 'primaryCare' || clinician.specialty === 'internalMedicine' ? '11506-3' : '11488-4',
    };
    this.visits.push(v);
    return v;
  }

  // ---- conditions --------------------------------------------------------------------------------------------

  diagnose(key: string, spec: ConditionSpec, visit: Visit, options: { abated?: number } = {}): ConditionRecord {
    const record: ConditionRecord = { ...spec, key, id: this.newId('cond'), onset: visit.start, abated: options.abated, visit };
    this.conditions.set(key, record);
    visit.diagnoses.push(record.id);
    visit.problems.push(`${spec.text} (${spec.icd}): new diagnosis.`);
    const clinical = options.abated !== undefined && options.abated <= this.ref ? 'resolved' : 'active';
    const condition: Condition = {
      resourceType: 'Condition', id: record.id,
      clinicalStatus: cc(HL7.conditionClinical, clinical),
      verificationStatus: cc(HL7.conditionVerification, 'confirmed'),
      category: [cc(HL7.conditionCategory, 'problem-list-item')],
      code: { coding: [codingOf(ICD10CM, spec.icd), codingOf(SNOMED, spec.snomed)], text: spec.text },
      subject: ref('Patient', this.patientId),
      encounter: ref('Encounter', visit.id),
      onsetDateTime: this.instant(visit.start),
      recordedDate: this.instant(visit.start),
      recorder: ref('Practitioner', visit.clinician.practitionerId),
    };
    if (clinical === 'resolved') condition.abatementDateTime = this.instant(options.abated!);
    this.resources.push(condition);
    return record;
  }

  /** Mark an already written problem-list Condition resolved at t (e.g. a CKD stage superseded by the next). */
  resolve(conditionId: string, t: number): void {
    const c = this.resources.find((r) => r.resourceType === 'Condition' && r.id === conditionId) as Condition | undefined;
    if (!c) return;
    c.clinicalStatus = cc(HL7.conditionClinical, 'resolved');
    c.abatementDateTime = this.instant(t);
  }

  /** An encounter diagnosis (follow-up visit addressing a known problem). */
  addressed(key: string, visit: Visit, line?: string): void {
    const c = this.conditions.get(key);
    if (!c) return;
    if (this.rng.chance(0.35)) {
      const id = this.newId('cond');
      this.resources.push({
        resourceType: 'Condition', id,
        clinicalStatus: cc(HL7.conditionClinical, 'active'),
        verificationStatus: cc(HL7.conditionVerification, 'confirmed'),
        category: [cc(HL7.conditionCategory, 'encounter-diagnosis')],
        code: { coding: [codingOf(ICD10CM, c.icd), codingOf(SNOMED, c.snomed)], text: c.text },
        subject: ref('Patient', this.patientId),
        encounter: ref('Encounter', visit.id),
        onsetDateTime: this.instant(c.onset),
        recordedDate: this.instant(visit.start),
      } satisfies Condition);
      visit.diagnoses.push(id);
    } else {
      visit.diagnoses.push(c.id);
    }
    if (line) visit.problems.push(`${c.text}: ${line}`);
  }

  // ---- observations ------------------------------------------------------------------------------------------

  /** One lab result. `reliable` results are never degraded by the mess (diagnostic evidence the tests rely on). */
  lab(visit: Visit, key: LabKey, options: { value?: number; reliable?: boolean; at?: number } = {}): Observation | undefined {
    const def: LabDef = LABS[key];
    const t = options.at ?? visit.start + 20 * MINUTE;
    let value = round(options.value ?? this.measure(key, t), def.decimals);
    if (key !== 'EGFR' && def.low !== undefined && value < 0) value = 0;
    value = Math.max(value, 0);
    const m = this.mess;
    const r = this.messRng;
    const reliable = options.reliable ?? false;
    const flag = interpret(def, value, this.female);
    const display = `${FLOWSHEET.concepts[def.local]} ${value} ${UCUM.concepts[def.unit]}${flag !== 'N' ? ` (${flag})` : ''}`;
    if (!reliable && r.chance(m.noteOnly)) {
      visit.results.push(`${display} (outside lab, not in flowsheet)`);
      return undefined;
    }
    visit.results.push(display);
    const coding = [codingOf(LOINC, def.loinc)];
    if (!reliable && r.chance(m.localCodeOnly)) coding.splice(0, 1, codingOf(FLOWSHEET, def.local));
    else if (r.chance(m.localCodeBeside)) coding.push(codingOf(FLOWSHEET, def.local));
    const useAlt = !!def.alt && r.chance(m.unitVariant);
    const shown = useAlt ? round(value * def.alt!.factor, def.alt!.decimals) : value;
    const unit = useAlt ? def.alt!.unit : def.unit;
    const scale = useAlt ? def.alt!.factor : 1;
    const low = this.female && def.female ? def.female.low : def.low;
    const high = this.female && def.female ? def.female.high : def.high;
    const range: NonNullable<Observation['referenceRange']>[number] = {};
    if (low !== undefined) range.low = this.quantity(round(low * scale, useAlt ? def.alt!.decimals : def.decimals), unit);
    if (high !== undefined) range.high = this.quantity(round(high * scale, useAlt ? def.alt!.decimals : def.decimals), unit);
    const obs: Observation = {
      resourceType: 'Observation', id: this.newId('obs'), status: 'final',
      category: [cc(HL7.observationCategory, 'laboratory')],
      code: { coding, text: FLOWSHEET.concepts[def.local] },
      subject: ref('Patient', this.patientId),
      encounter: ref('Encounter', visit.id),
      effectiveDateTime: this.instant(t),
      issued: formatInstant(t + 6 * HOUR),
      performer: [ref('Organization', this.ctx.staff.healthSystemId)],
      valueQuantity: this.quantity(shown, unit),
      interpretation: [cc(HL7.interpretation, flag)],
      referenceRange: [range],
    };
    if (!reliable && r.chance(m.missingValue)) {
      delete obs.valueQuantity;
      delete obs.interpretation;
      obs.dataAbsentReason = cc(HL7.dataAbsentReason, 'error', 'Specimen hemolyzed');
    }
    this.resources.push(obs);
    if (!reliable && r.chance(m.duplicate)) this.resources.push({ ...obs, id: this.newId('obs') });
    if (!reliable && r.chance(m.enteredInError)) {
      this.resources.push({ ...obs, id: this.newId('obs'), status: 'entered-in-error', valueQuantity: this.quantity(round(shown * 1.8, def.decimals), unit), note: [{ text: 'Result entered on wrong patient; see corrected result.' }] });
    } else if (!reliable && r.chance(m.corrected)) {
      obs.status = 'corrected';
      obs.note = [{ text: 'Corrected result: reference range updated by the laboratory.' }];
    }
    return obs;
  }

  /** A lab panel: ServiceRequest (order) -> Observations -> DiagnosticReport that references them. */
  panel(visit: Visit, key: PanelKey, options: { reliable?: boolean } = {}): Observation[] {
    const panel = PANELS[key];
    const t = visit.start + 20 * MINUTE;
    const orderId = this.newId('sr');
    this.resources.push({
      resourceType: 'ServiceRequest', id: orderId, status: 'completed', intent: 'order',
      category: [cc(SNOMED, '108252007')],
      code: cc(LOINC, panel.loinc),
      subject: ref('Patient', this.patientId), encounter: ref('Encounter', visit.id),
      authoredOn: this.instant(visit.start), occurrenceDateTime: this.instant(t),
      requester: ref('Practitioner', visit.clinician.practitionerId),
    } satisfies ServiceRequest);
    const results = panel.labs.map((lab) => this.lab(visit, lab, { reliable: options.reliable, at: t })).filter((o): o is Observation => !!o);
    if (results.length === 0) return results;
    this.resources.push({
      resourceType: 'DiagnosticReport', id: this.newId('dr'), status: 'final',
      basedOn: [ref('ServiceRequest', orderId)],
      category: [cc(HL7.diagnosticService, 'LAB'), cc(HL7.diagnosticService, panel.service)],
      code: cc(LOINC, panel.loinc),
      subject: ref('Patient', this.patientId), encounter: ref('Encounter', visit.id),
      effectiveDateTime: this.instant(t), issued: formatInstant(t + 6 * HOUR),
      performer: [ref('Organization', this.ctx.staff.healthSystemId)],
      result: results.map((o) => ref('Observation', o.id!)),
    } satisfies DiagnosticReport);
    return results;
  }

  /** A single-test order with its report (A1c, TSH, INR ...). */
  test(visit: Visit, key: LabKey, options: { value?: number; reliable?: boolean } = {}): Observation | undefined {
    const def = LABS[key];
    const t = visit.start + 20 * MINUTE;
    const orderId = this.newId('sr');
    this.resources.push({
      resourceType: 'ServiceRequest', id: orderId, status: 'completed', intent: 'order',
      category: [cc(SNOMED, '108252007')], code: cc(LOINC, def.loinc),
      subject: ref('Patient', this.patientId), encounter: ref('Encounter', visit.id),
      authoredOn: this.instant(visit.start), requester: ref('Practitioner', visit.clinician.practitionerId),
    } satisfies ServiceRequest);
    const obs = this.lab(visit, key, { ...options, at: t });
    if (obs) {
      this.resources.push({
        resourceType: 'DiagnosticReport', id: this.newId('dr'), status: 'final', basedOn: [ref('ServiceRequest', orderId)],
        category: [cc(HL7.diagnosticService, 'LAB')], code: cc(LOINC, def.loinc),
        subject: ref('Patient', this.patientId), encounter: ref('Encounter', visit.id),
        effectiveDateTime: this.instant(t), issued: formatInstant(t + 6 * HOUR), result: [ref('Observation', obs.id!)],
      } satisfies DiagnosticReport);
    }
    return obs;
  }

  quantity(value: number, unit: string) {
    return { value, unit: UCUM.concepts[unit] ?? unit, system: UCUM.system, code: unit };
  }

  /** Vital signs per the FHIR R4 vital-signs profile, BP as a panel with systolic/diastolic components. */
  vitals(visit: Visit): void {
    const t = visit.start + 5 * MINUTE;
    const sbp = Math.round(this.expected('SBP', t) + this.rng.normal(0, 6));
    const dbp = Math.round(this.expected('DBP', t) + this.rng.normal(0, 4));
    const hr = Math.round(this.expected('HR', t) + this.rng.normal(0, 5));
    const weight = round(this.expected('WEIGHT', t) + this.rng.normal(0, 0.6), 1);
    const height = round(this.expected('HEIGHT', t), 1);
    const spo2 = Math.min(100, Math.round(this.expected('SPO2', t) + this.rng.normal(0, 0.8)));
    const temp = round(36.8 + this.rng.normal(0, 0.2), 1);
    const rr = Math.round(15 + this.rng.normal(0, 1.5));
    const bmi = round(weight / (height / 100) ** 2, 1);
    const vital = (loinc: string, value: number, unit: string, extra: Partial<Observation> = {}): Observation => ({
      resourceType: 'Observation', id: this.newId('obs'), status: 'final',
      category: [cc(HL7.observationCategory, 'vital-signs')],
      code: cc(LOINC, loinc),
      subject: ref('Patient', this.patientId), encounter: ref('Encounter', visit.id),
      effectiveDateTime: this.instant(t),
      valueQuantity: this.quantity(value, unit),
      ...extra,
    });
    const bp = vital('85354-9', 0, 'mm[Hg]');
    delete bp.valueQuantity;
    const bpCoding = [codingOf(LOINC, '85354-9')];
    if (this.messRng.chance(this.mess.localCodeBeside)) bpCoding.push(codingOf(FLOWSHEET, 'BP'));
    bp.code = { coding: bpCoding, text: 'Blood pressure' };
    bp.component = [
      { code: cc(LOINC, '8480-6'), valueQuantity: this.quantity(sbp, 'mm[Hg]'), interpretation: [cc(HL7.interpretation, sbp >= 140 ? 'H' : sbp < 90 ? 'L' : 'N')] },
      { code: cc(LOINC, '8462-4'), valueQuantity: this.quantity(dbp, 'mm[Hg]'), interpretation: [cc(HL7.interpretation, dbp >= 90 ? 'H' : dbp < 60 ? 'L' : 'N')] },
    ];
    this.resources.push(bp, vital('8867-4', hr, '/min'), vital('9279-1', rr, '/min'), vital('8310-5', temp, 'Cel'),
      vital('29463-7', weight, 'kg'), vital('8302-2', height, 'cm'), vital('39156-5', bmi, 'kg/m2'));
    const sat = vital('2708-6', spo2, '%');
    sat.code = { coding: [codingOf(LOINC, '2708-6'), codingOf(LOINC, '59408-5')], text: 'SpO2' };
    this.resources.push(sat);
    visit.bp = [sbp, dbp];
    visit.vitalsText = `BP ${sbp}/${dbp} mmHg, HR ${hr}/min, RR ${rr}/min, T ${temp} C, SpO2 ${spo2}%, weight ${weight} kg, BMI ${bmi} kg/m2`;
  }

  // ---- medications -------------------------------------------------------------------------------------------

  /**
   * Start a medication course. Refuses (returns undefined) when the patient is allergic to an ingredient: no
   * active order for an allergen drug, ever.
   */
  prescribe(drug: Drug, visit: Visit, options: { indication?: string; end?: number; stopReason?: { code: string; text: string }; completes?: boolean; prior?: MedCourse } = {}): MedCourse | undefined {
    if (this.isAllergicTo(drug.rxcui)) return undefined;
    const course: MedCourse = {
      id: this.newId('mr'), drug, start: visit.start, end: options.end, stopReason: options.stopReason,
      indication: options.indication, prescriber: visit.clinician, visit, prior: options.prior?.id, completes: options.completes,
    };
    this.courses.push(course);
    visit.plan.push(options.prior ? `Changed to ${drug.product}: ${drug.sig}.` : `Started ${drug.product}: ${drug.sig}.`);
    return course;
  }

  /** Stop a course at t (status history: stopped with a reason). */
  stop(course: MedCourse, t: number, reason: { code: string; text: string }, visit?: Visit): void {
    course.end = t;
    course.stopReason = reason;
    visit?.plan.push(`Stopped ${course.drug.product} (${reason.text}).`);
  }

  /** Change dose: the old order stops ("dose changed"), a new one starts referring to it (priorPrescription). */
  change(course: MedCourse, drug: Drug, visit: Visit, why: string): MedCourse | undefined {
    this.stop(course, visit.start, { code: 'altchoice', text: why });
    visit.plan.pop();
    return this.prescribe(drug, visit, { indication: course.indication, prior: course });
  }

  private medicationRequest(c: MedCourse): MedicationRequest {
    const d = c.drug;
    const ended = c.end !== undefined && c.end <= this.ref;
    const status: MedicationRequest['status'] = !ended ? 'active' : c.completes ? 'completed' : 'stopped';
    const freeText = this.messRng.chance(this.mess.freeTextMed);
    const supply = d.supply ?? (d.perDay || 1) * 30;
    const mr: MedicationRequest = {
      resourceType: 'MedicationRequest', id: c.id, status, intent: 'order',
      category: [cc(HL7.medicationRequestCategory, 'outpatient')],
      medicationCodeableConcept: freeText ? { text: `${d.product.split(' ')[0]} ${d.dose} ${d.doseUnit} - see sig` } : { coding: [codingOf(RXNORM, d.rxcui)], text: d.product },
      subject: ref('Patient', this.patientId),
      authoredOn: this.instant(c.start),
      requester: ref('Practitioner', c.prescriber.practitionerId, c.prescriber.name),
      dosageInstruction: [{
        sequence: 1, text: d.sig,
        timing: d.perDay > 0
          ? { repeat: { frequency: d.perDay, period: 1, periodUnit: d.weekly ? 'wk' : 'd', boundsPeriod: { start: formatDate(c.start) } }, code: cc(HL7.timingAbbreviation, d.weekly ? 'WK' : GTS[d.perDay] ?? 'QD') }
          : { code: cc(HL7.timingAbbreviation, 'PRN') },
        asNeededBoolean: d.perDay === 0,
        route: cc(SNOMED, ROUTES[d.route]),
        doseAndRate: [{ doseQuantity: this.quantity(d.dose, d.doseUnit) }],
      }],
      dispenseRequest: {
        numberOfRepeatsAllowed: c.completes ? 0 : 5,
        quantity: { value: supply, unit: d.route === 'inhaled' ? 'puff' : d.route === 'subcutaneous' ? 'IU' : 'tablet', system: UCUM.system, code: d.route === 'inhaled' ? '{puff}' : d.route === 'subcutaneous' ? '[iU]' : '{tbl}' },
        expectedSupplyDuration: { value: 30, unit: 'day', system: UCUM.system, code: 'd' },
      },
    };
    if (c.visit) mr.encounter = ref('Encounter', c.visit.id);
    if (c.indication) {
      const cond = this.conditions.get(c.indication);
      if (cond) mr.reasonReference = [ref('Condition', cond.id)];
    }
    if (c.prior) mr.priorPrescription = ref('MedicationRequest', c.prior);
    if (status === 'stopped' && c.stopReason) {
      mr.statusReason = { coding: [codingOf(HL7.medicationRequestStatusReason, c.stopReason.code)], text: c.stopReason.text };
    }
    if (ended) mr.dosageInstruction![0].timing!.repeat = { ...mr.dosageInstruction![0].timing!.repeat, boundsPeriod: { start: formatDate(c.start), end: formatDate(c.end!) } };
    return mr;
  }

  // ---- orders, procedures, imaging, care plans ----------------------------------------------------------------

  referral(visit: Visit, to: Specialty, reason: string): void {
    this.resources.push({
      resourceType: 'ServiceRequest', id: this.newId('sr'), status: 'completed', intent: 'order',
      category: [cc(SNOMED, '386053000')], code: cc(SNOMED, '3457005', `Referral to ${SPECIALTIES[to].clinic}`),
      subject: ref('Patient', this.patientId), encounter: ref('Encounter', visit.id),
      authoredOn: this.instant(visit.start), requester: ref('Practitioner', visit.clinician.practitionerId),
      performerType: cc(SNOMED, SPECIALTIES[to].snomed),
      performer: [ref('PractitionerRole', this.clinician(to).roleId)],
      reasonCode: [{ text: reason }],
    } satisfies ServiceRequest);
    visit.plan.push(`Referred to ${this.clinician(to).name} (${SPECIALTIES[to].clinic}) for ${reason}.`);
  }

  /** An imaging study: order, procedure, report with conclusion, and the imaging report document. */
  imaging(visit: Visit, procedure: string, reportCode: { table: 'LOINC' | 'SNOMED'; code: string }, conclusion: string, reason?: string): void {
    const t = visit.start + HOUR;
    const orderId = this.newId('sr');
    const radiologist = this.clinician('radiology');
    this.resources.push({
      resourceType: 'ServiceRequest', id: orderId, status: 'completed', intent: 'order',
      category: [cc(SNOMED, '363679005')], code: cc(SNOMED, procedure),
      subject: ref('Patient', this.patientId), encounter: ref('Encounter', visit.id),
      authoredOn: this.instant(visit.start), requester: ref('Practitioner', visit.clinician.practitionerId),
      ...(reason ? { reasonCode: [{ text: reason }] } : {}),
    } satisfies ServiceRequest);
    const procId = this.newId('proc');
    this.resources.push({
      resourceType: 'Procedure', id: procId, status: 'completed', code: cc(SNOMED, procedure),
      subject: ref('Patient', this.patientId), encounter: ref('Encounter', visit.id), basedOn: [ref('ServiceRequest', orderId)],
      performedDateTime: this.instant(t), performer: [{ actor: ref('Practitioner', radiologist.practitionerId) }],
    });
    const code = reportCode.table === 'LOINC' ? cc(LOINC, reportCode.code) : cc(SNOMED, reportCode.code);
    const drId = this.newId('dr');
    this.resources.push({
      resourceType: 'DiagnosticReport', id: drId, status: 'final', basedOn: [ref('ServiceRequest', orderId)],
      category: [cc(HL7.diagnosticService, 'RAD')], code,
      subject: ref('Patient', this.patientId), encounter: ref('Encounter', visit.id),
      effectiveDateTime: this.instant(t), issued: formatInstant(t + 3 * HOUR),
      resultsInterpreter: [ref('Practitioner', radiologist.practitionerId)], conclusion,
    } satisfies DiagnosticReport);
    const title = SNOMED.concepts[procedure];
    const text = `IMAGING REPORT\nStudy: ${title}\nDate: ${formatDate(t)}\nPatient: ${this.name}, MRN ${this.mrn}\n` +
      `Ordering clinician: ${visit.clinician.name}\nReading radiologist: ${radiologist.name}\n` +
      (reason ? `Indication: ${reason}\n` : '') + `Impression: ${conclusion}\n`;
    this.document(visit, '18748-4', text, t + 3 * HOUR, radiologist, `${title} report`);
    visit.results.push(`${title}: ${conclusion}`);
  }

  /** An open lab order to be drawn before a future visit (status active, occurrence after the reference date). */
  futureOrder(lab: LabKey | PanelKey, at: number, clinician: Clinician, reasonKey?: string): void {
    const loinc = lab in PANELS ? PANELS[lab as PanelKey].loinc : LABS[lab as LabKey].loinc;
    const cond = reasonKey ? this.conditions.get(reasonKey) : undefined;
    this.resources.push({
      resourceType: 'ServiceRequest', id: this.newId('sr'), status: 'active', intent: 'order',
      category: [cc(SNOMED, '108252007')], code: cc(LOINC, loinc),
      subject: ref('Patient', this.patientId), authoredOn: this.instant(Math.min(at - 14 * DAY, this.ref - DAY)),
      occurrenceDateTime: formatInstant(this.clinicTime(at)), requester: ref('Practitioner', clinician.practitionerId),
      ...(cond ? { reasonReference: [ref('Condition', cond.id)] } : {}),
    } satisfies ServiceRequest);
  }

  /** A biopsy with its surgical pathology report (DiagnosticReport with conclusion, and the report document). */
  pathology(visit: Visit, site: string, conclusion: string): void {
    const t = visit.start + HOUR;
    const procId = this.newId('proc');
    this.resources.push({
      resourceType: 'Procedure', id: procId, status: 'completed', code: cc(SNOMED, '86273004', `Biopsy of ${site}`),
      subject: ref('Patient', this.patientId), encounter: ref('Encounter', visit.id),
      performedDateTime: this.instant(t), performer: [{ actor: ref('Practitioner', visit.clinician.practitionerId) }],
    });
    const reported = t + 2 * DAY;
    this.resources.push({
      resourceType: 'DiagnosticReport', id: this.newId('dr'), status: 'final',
      category: [cc(HL7.diagnosticService, 'SP')], code: cc(SNOMED, '86273004', `Surgical pathology: ${site} biopsy`),
      subject: ref('Patient', this.patientId), encounter: ref('Encounter', visit.id),
      effectiveDateTime: this.instant(t), issued: formatInstant(reported),
      performer: [ref('Organization', this.ctx.staff.healthSystemId)], conclusion,
    } satisfies DiagnosticReport);
    visit.results.push(`Pathology (${site} biopsy): ${conclusion}`);
  }

  procedure(visit: Visit, code: string, note?: string): void {
    this.resources.push({
      resourceType: 'Procedure', id: this.newId('proc'), status: 'completed', code: cc(SNOMED, code),
      subject: ref('Patient', this.patientId), encounter: ref('Encounter', visit.id),
      performedDateTime: this.instant(visit.start + HOUR), performer: [{ actor: ref('Practitioner', visit.clinician.practitionerId) }],
      ...(note ? { note: [{ text: note }] } : {}),
    });
    visit.plan.push(`${SNOMED.concepts[code]} performed${note ? `: ${note}` : ''}.`);
  }

  carePlan(key: string, visit: Visit, activities: string[]): void {
    const c = this.conditions.get(key);
    if (!c) return;
    this.resources.push({
      resourceType: 'CarePlan', id: this.newId('cp'), status: this.has(key) ? 'active' : 'completed', intent: 'plan',
      category: [cc(HL7.carePlanCategory, 'assess-plan')],
      title: `${c.text} care plan`, description: activities.join(' '),
      subject: ref('Patient', this.patientId), encounter: ref('Encounter', visit.id),
      period: { start: this.instant(visit.start) }, created: this.instant(visit.start),
      author: ref('Practitioner', visit.clinician.practitionerId),
      addresses: [ref('Condition', c.id)],
      activity: activities.map((text) => ({ detail: { status: 'in-progress', description: text } })),
    });
  }

  /** A future appointment (booked, after the reference date) with the visit's clinician. */
  appointment(at: number, clinician: Clinician, description: string, reasonKey?: string): void {
    const start = this.clinicTime(at);
    const cond = reasonKey ? this.conditions.get(reasonKey) : undefined;
    this.resources.push({
      resourceType: 'Appointment', id: this.newId('appt'), status: start > this.ref ? 'booked' : 'fulfilled',
      appointmentType: cc(HL7.appointmentReason, 'FOLLOWUP'),
      description, start: formatInstant(start), end: formatInstant(start + 30 * MINUTE), minutesDuration: 30,
      ...(cond ? { reasonReference: [ref('Condition', cond.id)] } : {}),
      participant: [
        { actor: ref('Patient', this.patientId, this.name), status: 'accepted', required: 'required' },
        { actor: ref('Practitioner', clinician.practitionerId, clinician.name), status: 'accepted', required: 'required' },
        { actor: ref('Location', clinician.locationId), status: 'accepted', required: 'required' },
      ],
    });
  }

  document(visit: Visit, loinc: string, text: string, at: number, author: Clinician, title: string): void {
    this.resources.push({
      resourceType: 'DocumentReference', id: this.newId('doc'), status: 'current', docStatus: 'final',
      type: cc(LOINC, loinc), category: [cc(HL7.documentCategory, 'clinical-note')],
      subject: ref('Patient', this.patientId), date: formatInstant(at),
      author: [ref('Practitioner', author.practitionerId, author.name)],
      custodian: ref('Organization', this.ctx.staff.healthSystemId),
      description: title,
      content: [{ attachment: { contentType: 'text/plain; charset=utf-8', language: 'en-US', data: Buffer.from(text, 'utf8').toString('base64'), title, creation: formatInstant(at) } }],
      context: { encounter: [ref('Encounter', visit.id)], period: { start: formatInstant(visit.start), end: formatInstant(visit.end) } },
    } satisfies DocumentReference);
  }

  // ---- finishing ----------------------------------------------------------------------------------------------

  /** Emit the encounters, medication orders and notes accumulated in the state. */
  finish(): Resource[] {
    for (const c of this.courses) this.resources.push(this.medicationRequest(c));
    for (const v of this.visits) {
      const encounter: Encounter = {
        resourceType: 'Encounter', id: v.id, status: v.start > this.ref ? 'planned' : 'finished',
        class: codingOf(HL7.actCode, v.kind),
        type: [cc(SNOMED, v.typeCode)],
        subject: ref('Patient', this.patientId, this.name),
        participant: [{ type: [cc(HL7.participationType, 'ATND')], individual: ref('Practitioner', v.clinician.practitionerId, v.clinician.name) }],
        period: { start: this.instant(v.start), end: this.instant(v.end) },
        reasonCode: [{ text: v.reasonText }],
        location: [{ location: ref('Location', v.clinician.locationId) }],
        serviceProvider: ref('Organization', v.clinician.organizationId),
      };
      if (v.diagnoses.length) {
        encounter.diagnosis = v.diagnoses.map((id, i) => ({ condition: ref('Condition', id), rank: i + 1 }));
      }
      if (v.kind === 'IMP') encounter.hospitalization = { dischargeDisposition: { text: 'Discharged home' } };
      this.resources.push(encounter);
      if (!v.silent) this.note(v);
    }
    return this.resources;
  }

  private note(v: Visit): void {
    const age = Math.floor(this.ageAt(v.start));
    const title = { '11506-3': 'Progress note', '11488-4': 'Consult note', '18842-5': 'Discharge summary', '34117-2': 'History and physical note' }[v.noteType];
    const lines = [
      title.toUpperCase(),
      `Date: ${formatDate(v.start)}    Clinic: ${this.ctx.staff.organizationName(v.clinician.organizationId)}`,
      `Clinician: ${v.clinician.name}`,
      `Patient: ${this.name}, ${age} y/o ${this.sex}, MRN ${this.mrn}`,
      `Reason for visit: ${v.reasonText}`,
    ];
    if (v.vitalsText) lines.push(`Vitals: ${v.vitalsText}`);
    if (v.results.length) lines.push('Results:', ...v.results.map((r) => `  ${r}`));
    if (v.problems.length) lines.push('Assessment:', ...v.problems.map((p) => `  - ${p}`));
    const meds = this.courses.filter((c) => c.start <= v.start && (c.end === undefined || c.end > v.start)).map((c) => c.drug.product);
    if (meds.length) lines.push(`Current medications: ${[...new Set(meds)].join('; ')}`);
    if (v.plan.length) lines.push('Plan:', ...v.plan.map((p) => `  - ${p}`));
    if (!v.plan.length && !v.problems.length) lines.push('Plan: continue current management; return as scheduled.');
    this.document(v, v.noteType, lines.join('\n') + '\n', v.end, v.clinician, `${title} ${formatDate(v.start)}`);
  }
}
