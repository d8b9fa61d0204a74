// Results: single lab values with reference ranges and H/L/HH/LL, lab panels and single tests with their order and
// report, and vital signs per the FHIR R4 vital-signs profile. Values come from the physiology; defects from the mess.
import type { DiagnosticReport, Observation, ServiceRequest } from '@medplum/fhirtypes';
import { FLOWSHEET, HL7, LOINC, SNOMED, UCUM, codingOf } from '../codes/index.ts';
import { LABS, PANELS, interpret, round, type LabDef, type LabKey, type PanelKey } from '../codes/labs.ts';
import { HOUR, MINUTE, formatInstant } from '../time.ts';
import { cc, quantity, ref } from './fhir-values.ts';
import { convertValue } from '../../resources/units/analytes.ts';
import type { ChartState } from './state.ts';
import type { Visit } from './types.ts';

export interface LabOptions {
  /** The value to report instead of the physiology's. */
  value?: number;
  /** Never degraded by the mess. */
  reliable?: boolean;
  at?: number;
  /** The place in the visit's results (note text) reserved when the result was ordered (deferred results). */
  slot?: number;
}

/** Reserve a line in the visit's results now, so a deferred result keeps its place in the note. */
const reserveSlot = (visit: Visit): number => visit.results.push('') - 1;

/** One lab result. `reliable` results are never degraded by the mess (diagnostic evidence the tests rely on). */
export function lab(chart: ChartState, visit: Visit, key: LabKey, options: LabOptions = {}): Observation | undefined {
  return orderLab(chart, visit, key, options).write();
}

/** A result ordered (its draws taken) and not yet written. */
interface OrderedLab {
  /** False when the result will live only in the note (no Observation). */
  stored: boolean;
  write(): Observation | undefined;
}

/**
 * Order one lab result: every random draw is taken now, in the order a result drawn on the spot takes them (the
 * physiology's noise, the mess's coding, unit, time zone and fate, the ids), so deferring a result changes its value
 * (read from the finished chart) and nothing else.
 */
function orderLab(chart: ChartState, visit: Visit, key: LabKey, options: LabOptions): OrderedLab {
  const def: LabDef = LABS[key];
  const t = options.at ?? visit.start + 20 * MINUTE;
  let noise = 0;
  if (options.value === undefined) {
    chart.expected(key, t); // draws the baselines and modifier draws it depends on, as a measurement now would
    noise = chart.noise(key);
  }
  const measured = (): number => {
    let value = round(options.value ?? chart.expected(key, t) + noise, def.decimals);
    if (key !== 'EGFR' && def.low !== undefined && value < 0) value = 0;
    return Math.max(value, 0);
  };
  const display = (value: number): string => {
    const flag = interpret(def, value, chart.female);
    return `${FLOWSHEET.concepts[def.local]} ${value} ${UCUM.concepts[def.unit]}${flag !== 'N' ? ` (${flag})` : ''}`;
  };
  const mess = chart.mess;
  const reliable = options.reliable ?? false;
  if (mess.onlyInNote(reliable)) {
    return {
      stored: false,
      write: () => {
        writeResult(visit, `${display(measured())} (outside lab, not in flowsheet)`, options.slot);
        return undefined;
      },
    };
  }
  const coding = mess.labCoding(def, reliable);
  const useAlt = mess.alternativeUnit(def);
  const id = chart.newId('obs');
  const effective = chart.instant(t);
  const fate = mess.resultFate(reliable, () => chart.newId('obs'));
  return { stored: true, write: () => {
    const value = measured();
    writeResult(visit, display(value), options.slot);
    const unit = useAlt ? def.alt!.unit : def.unit;
    const decimals = useAlt ? def.alt!.decimals : def.decimals;
    // The alternative unit's value through the one conversion graders also use (molar masses in the analyte table).
    const reported = (v: number): number => {
      if (!useAlt) return v;
      const converted = convertValue(v, def.unit, unit, [def.loinc]);
      if (converted === undefined) throw new Error(`no conversion of ${def.key} from ${def.unit} to ${unit}`);
      return round(converted, decimals);
    };
    const shown = reported(value);
    const low = chart.female && def.female ? def.female.low : def.low;
    const high = chart.female && def.female ? def.female.high : def.high;
    const range: NonNullable<Observation['referenceRange']>[number] = {};
    if (low !== undefined) range.low = quantity(useAlt ? reported(low) : round(low, def.decimals), unit);
    if (high !== undefined) range.high = quantity(useAlt ? reported(high) : round(high, def.decimals), unit);
    const obs: Observation = {
      resourceType: 'Observation', id, status: 'final',
      category: [cc(HL7.observationCategory, 'laboratory')],
      code: { coding, text: FLOWSHEET.concepts[def.local] },
      subject: ref('Patient', chart.patientId),
      encounter: ref('Encounter', visit.id),
      effectiveDateTime: effective,
      issued: formatInstant(t + 6 * HOUR),
      performer: [ref('Organization', chart.ctx.staff.healthSystemId)],
      valueQuantity: quantity(shown, unit),
      interpretation: [cc(HL7.interpretation, interpret(def, value, chart.female))],
      referenceRange: [range],
    };
    const copies = mess.applyFate(obs, fate, quantity(round(shown * 1.8, def.decimals), unit));
    chart.resources.push(obs, ...copies);
    return obs;
  } };
}

function writeResult(visit: Visit, text: string, slot: number | undefined): void {
  if (slot === undefined) visit.results.push(text);
  else visit.results[slot] = text;
}

/** A lab panel, written from the finished chart (deferred: see ChartState.defer). */
export function panel(chart: ChartState, visit: Visit, key: PanelKey, options: { reliable?: boolean } = {}): void {
  const slots = PANELS[key].labs.map(() => reserveSlot(visit));
  const write = orderPanel(chart, visit, key, { ...options, slots });
  chart.defer(() => write());
}

/** A single-test order with its report, written from the finished chart (deferred: see ChartState.defer). */
export function deferredTest(chart: ChartState, visit: Visit, key: LabKey, options: { value?: number; reliable?: boolean } = {}): void {
  const write = orderTest(chart, visit, key, { ...options, slot: reserveSlot(visit) });
  chart.defer(() => write());
}

/** A single-test order with its report (A1c, TSH, INR ...), drawn now: for a module that decides on its value. */
export function singleTest(chart: ChartState, visit: Visit, key: LabKey, options: { value?: number; reliable?: boolean } = {}): Observation | undefined {
  return orderTest(chart, visit, key, options)();
}

/** A lab panel: ServiceRequest (order, now) -> Observations -> DiagnosticReport that references them (when written). */
function orderPanel(chart: ChartState, visit: Visit, key: PanelKey, options: { reliable?: boolean; slots: number[] }): () => Observation[] {
  const def = PANELS[key];
  const t = visit.start + 20 * MINUTE;
  const orderId = chart.newId('sr');
  chart.resources.push({
    resourceType: 'ServiceRequest', id: orderId, status: 'completed', intent: 'order',
    category: [cc(SNOMED, '108252007')],
    code: cc(LOINC, def.loinc),
    subject: ref('Patient', chart.patientId), encounter: ref('Encounter', visit.id),
    authoredOn: chart.instant(visit.start), occurrenceDateTime: chart.instant(t),
    requester: ref('Practitioner', visit.clinician.practitionerId),
  } satisfies ServiceRequest);
  const labs = def.labs.map((labKey, i) => orderLab(chart, visit, labKey, { reliable: options.reliable, at: t, slot: options.slots[i] }));
  const report = labs.some((l) => l.stored) ? { id: chart.newId('dr'), effective: chart.instant(t) } : undefined;
  return () => {
    const results = labs.map((l) => l.write()).filter((o): o is Observation => !!o);
    if (!report) return results;
    chart.resources.push({
      resourceType: 'DiagnosticReport', id: report.id, status: 'final',
      basedOn: [ref('ServiceRequest', orderId)],
      category: [cc(HL7.diagnosticService, 'LAB'), cc(HL7.diagnosticService, def.service)],
      code: cc(LOINC, def.loinc),
      subject: ref('Patient', chart.patientId), encounter: ref('Encounter', visit.id),
      effectiveDateTime: report.effective, issued: formatInstant(t + 6 * HOUR),
      performer: [ref('Organization', chart.ctx.staff.healthSystemId)],
      result: results.map((o) => ref('Observation', o.id!)),
    } satisfies DiagnosticReport);
    return results;
  };
}

/** A single-test order (now) with its result and report (when written). */
function orderTest(chart: ChartState, visit: Visit, key: LabKey, options: { value?: number; reliable?: boolean; slot?: number }): () => Observation | undefined {
  const def = LABS[key];
  const t = visit.start + 20 * MINUTE;
  const orderId = chart.newId('sr');
  chart.resources.push({
    resourceType: 'ServiceRequest', id: orderId, status: 'completed', intent: 'order',
    category: [cc(SNOMED, '108252007')], code: cc(LOINC, def.loinc),
    subject: ref('Patient', chart.patientId), encounter: ref('Encounter', visit.id),
    authoredOn: chart.instant(visit.start), requester: ref('Practitioner', visit.clinician.practitionerId),
  } satisfies ServiceRequest);
  const ordered = orderLab(chart, visit, key, { ...options, at: t });
  const report = ordered.stored ? { id: chart.newId('dr'), effective: chart.instant(t) } : undefined;
  return () => {
    const obs = ordered.write();
    if (obs && report) {
      chart.resources.push({
        resourceType: 'DiagnosticReport', id: report.id, status: 'final', basedOn: [ref('ServiceRequest', orderId)],
        category: [cc(HL7.diagnosticService, 'LAB')], code: cc(LOINC, def.loinc),
        subject: ref('Patient', chart.patientId), encounter: ref('Encounter', visit.id),
        effectiveDateTime: report.effective, issued: formatInstant(t + 6 * HOUR), result: [ref('Observation', obs.id!)],
      } satisfies DiagnosticReport);
    }
    return obs;
  };
}

/** Vital signs per the FHIR R4 vital-signs profile, BP as a panel with systolic/diastolic components. */
export function vitals(chart: ChartState, visit: Visit): void {
  const t = visit.start + 5 * MINUTE;
  const rng = chart.rng;
  const sbp = Math.round(chart.expected('SBP', t) + rng.normal(0, 6));
  const dbp = Math.round(chart.expected('DBP', t) + rng.normal(0, 4));
  const hr = Math.round(chart.expected('HR', t) + rng.normal(0, 5));
  const weight = round(chart.expected('WEIGHT', t) + rng.normal(0, 0.6), 1);
  const height = round(chart.expected('HEIGHT', t), 1);
  const spo2 = Math.min(100, Math.round(chart.expected('SPO2', t) + rng.normal(0, 0.8)));
  const temp = round(36.8 + rng.normal(0, 0.2), 1);
  const rr = Math.round(15 + rng.normal(0, 1.5));
  const bmi = round(weight / (height / 100) ** 2, 1);
  const vital = (loinc: string, value: number, unit: string, extra: Partial<Observation> = {}): Observation => ({
    resourceType: 'Observation', id: chart.newId('obs'), status: 'final',
    category: [cc(HL7.observationCategory, 'vital-signs')],
    code: cc(LOINC, loinc),
    subject: ref('Patient', chart.patientId), encounter: ref('Encounter', visit.id),
    effectiveDateTime: chart.instant(t),
    valueQuantity: quantity(value, unit),
    ...extra,
  });
  const bp = vital('85354-9', 0, 'mm[Hg]');
  delete bp.valueQuantity;
  const bpCoding = [codingOf(LOINC, '85354-9')];
  chart.mess.localCodeBeside(bpCoding, 'BP');
  bp.code = { coding: bpCoding, text: 'Blood pressure' };
  bp.component = [
    { code: cc(LOINC, '8480-6'), valueQuantity: quantity(sbp, 'mm[Hg]'), interpretation: [cc(HL7.interpretation, sbp >= 140 ? 'H' : sbp < 90 ? 'L' : 'N')] },
    { code: cc(LOINC, '8462-4'), valueQuantity: quantity(dbp, 'mm[Hg]'), interpretation: [cc(HL7.interpretation, dbp >= 90 ? 'H' : dbp < 60 ? 'L' : 'N')] },
  ];
  chart.resources.push(bp, vital('8867-4', hr, '/min'), vital('9279-1', rr, '/min'), vital('8310-5', temp, 'Cel'),
    vital('29463-7', weight, 'kg'), vital('8302-2', height, 'cm'), vital('39156-5', bmi, 'kg/m2'));
  const sat = vital('2708-6', spo2, '%');
  sat.code = { coding: [codingOf(LOINC, '2708-6'), codingOf(LOINC, '59408-5')], text: 'SpO2' };
  chart.resources.push(sat);
  visit.bp = [sbp, dbp];
  visit.vitalsText = `BP ${sbp}/${dbp} mmHg, HR ${hr}/min, RR ${rr}/min, T ${temp} C, SpO2 ${spo2}%, weight ${weight} kg, BMI ${bmi} kg/m2`;
}
