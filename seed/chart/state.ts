// The shared clinical state of one chart while it is generated: identity, clock, conditions, medication courses,
// allergies, physiology and visits. Modules read it to decide; the builders (conditions, observations, medications,
// orders, encounters, notes) write FHIR resources from it into `resources`.
import type { Resource } from '@medplum/fhirtypes';
import { ingredientsOf } from '../codes/index.ts';
import { Rng } from '../random.ts';
import type { Clinician, Specialty, Staff } from '../staff.ts';
import { DAY, HOUR, MINUTE, YEAR, formatInstant } from '../time.ts';
import { ChartMess } from './mess.ts';
import { Physiology, type Modifier } from './physiology.ts';
import type { ChartContext, ConditionRecord, MedCourse, Sex, Visit } from './types.ts';

export class ChartState {
  readonly rng: Rng;
  /** Messiness draws come from their own stream, so --clean changes the mess and nothing else. */
  readonly mess: ChartMess;
  readonly patientId: string;
  readonly ref: number;
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
  private readonly physiology: Physiology;
  /** Work left for when every module has run (results drawn from the complete physiology and medication list). */
  private readonly pending: (() => void)[] = [];
  private counter = 0;
  private readonly pcp: Clinician;

  constructor(readonly ctx: ChartContext) {
    this.rng = new Rng(`${ctx.seed}/patient/${ctx.index}`);
    this.mess = new ChartMess(new Rng(`${ctx.seed}/mess/${ctx.index}`), ctx.mess);
    this.patientId = `s${ctx.seed}-p${ctx.index}`;
    this.ref = ctx.reference;
    this.staff = ctx.staff;
    this.pcp = this.rng.pick(ctx.staff.bySpecialty.primaryCare);
    this.physiology = new Physiology(this.rng, () => this.female);
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

  /** An instant in UTC, or (messy) in the patient's local offset. */
  instant(t: number): string {
    return this.mess.localTime() ? formatInstant(t, this.tzOffset) : formatInstant(t);
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

  // ---- physiology --------------------------------------------------------------------------------------------

  /** Make a lab or vital respond to disease or treatment: modifiers apply in registration order. */
  modify(key: string, fn: Modifier): void {
    this.physiology.modify(key, fn);
  }

  /** The value the physiology predicts at t, without measurement noise. */
  expected(key: string, t: number): number {
    return this.physiology.expected(key, t);
  }

  /** A measured value: expected plus measurement noise. */
  measure(key: string, t: number): number {
    return this.physiology.measure(key, t);
  }

  /** One draw of a lab's measurement noise (a deferred result draws it when ordered, its value when settled). */
  noise(key: string): number {
    return this.physiology.noise(key);
  }

  // ---- deferred results --------------------------------------------------------------------------------------

  /**
   * Run `fn` once every module has run. Modules run one after another, not in calendar order: a result drawn while
   * an early module runs would miss the drugs a later module starts before that date, and contradict a result the
   * later module draws the same day. Deferred results all read the finished chart.
   */
  defer(fn: () => void): void {
    this.pending.push(fn);
  }

  /** Run the deferred work, in the order it was deferred. */
  settle(): void {
    for (let i = 0; i < this.pending.length; i++) this.pending[i]();
    this.pending.length = 0;
  }
}
