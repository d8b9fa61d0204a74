// Grader: CHA2DS2-VASc is scored from the chart as it stood when the episode began (birth date at `now`, sex, coded
// problems); the decision follows from it (2023 ACC/AHA/ACCP/HRS: anticoagulate at >= 2 men / >= 3 women, not at
// 0 / 1). When indicated, the patient must end on exactly one oral anticoagulant at its label dose for this chart
// (the one already prescribed, or a new or replacing one); when not indicated, none may be started. No antiplatelet
// or parenteral anticoagulant may be added, and no unrelated order changed.
import type { Condition, DocumentReference, MedicationRequest, Observation, Patient, Resource } from '@medplum/fhirtypes';
import type { Check, GraderContext, SelectContext } from '../../../contracts/task.ts';
import type { ResourceChange } from '../../../contracts/gym-api.ts';
import type { FhirClient } from '../../../contracts/fhir-client.ts';
import { namesInTextFor, noteText, valueIn } from '../../../graders/lib/index.ts';
import { asAtStart, searchOf,
  allOf, answerField, answerText, bestOf, codingsOf, createdResources, describeConcept, drugIngredients, fail, fetchedAll, fetchedAny, findMedicationOrder, isNoLongerActive, label,
  latestObservation, matchNote, matchNumber, matchOf, matchRecommendation, matchYesNo, patientOf, rxnormIngredients, verdict, type Match,
} from '../../../graders/lib/index.ts';
import {
  AGE_POINTS, APIXABAN_LABEL, BODY_WEIGHT, CLEARANCE_DOSED, CREATININE, FEMALE_POINTS, ICD10CM, INDICATED_AT,
  NOT_INDICATED_AT_MOST, ORAL_ANTICOAGULANTS, OTHER_ANTITHROMBOTICS, SCORED_CONDITIONS, SNOMED, WARFARIN_START, type Drug,
} from './facts.ts';

// ---- the chart as it stood at the start of the episode -------------------------------------------------------


/** Which drug of a list an order is, from any RxNorm code (IN, SCD, SBD, brand) or, uncoded, its generic or brand
 * name in text (graders/lib/drugs). */
export function drugOf(order: MedicationRequest, drugs: Drug[]): Drug | undefined {
  const concept = order.medicationCodeableConcept;
  const ingredients = new Set([...rxnormIngredients(concept), ...drugIngredients(concept)]);
  return drugs.find((d) => d.ingredients.some((i) => ingredients.has(i)));
}

/** What the decision is about, as a note or answer names it. Drug names are read only when the text never names
 * anticoagulation itself: a switch ("apixaban started, warfarin stopped") is for anticoagulation, not against it. */
const ANTICOAGULATION_WORDS = ['anticoagulation', 'anticoagulant', 'anticoagulate', 'anticoagulated', 'OAC', 'DOAC'];

function recommendsAnticoagulation(note: DocumentReference, expected: 'recommend' | 'against'): Match {
  const general = matchRecommendation(note, { subject: ANTICOAGULATION_WORDS, expected });
  return general.candidate === 'absent'
    ? matchRecommendation(note, { subject: [...ANTICOAGULATION_WORDS, ...namesInTextFor(noteText(note), ORAL_ANTICOAGULANTS.map((d) => d.name))], expected }) : general;
}

const isActiveOrder = (o: MedicationRequest) => o.status === 'active' && ['order', 'original-order', 'instance-order'].includes(o.intent);

// ---- CHA2DS2-VASc --------------------------------------------------------------------------------------------

function ageAt(birthDate: string, now: string): number {
  const [by, bm, bd] = birthDate.split('-').map(Number);
  const at = new Date(now);
  const beforeBirthday = at.getUTCMonth() + 1 < bm || (at.getUTCMonth() + 1 === bm && at.getUTCDate() < (bd ?? 1));
  return at.getUTCFullYear() - by - (beforeBirthday ? 1 : 0);
}

function scores(condition: Condition, item: (typeof SCORED_CONDITIONS)[number]): boolean {
  return codingsOf(condition.code).some((c) => (c.system === SNOMED && item.snomed.includes(c.code ?? ''))
    || (c.system === ICD10CM && item.icd10Prefixes.some((p) => (c.code ?? '').startsWith(p))));
}

export interface StrokeRisk {
  score: number;
  parts: string[];
  female: boolean;
  age: number;
  /** Per scoring item, the conditions that score it (any one of them read is enough). */
  evidence: string[][];
  /** true: anticoagulation indicated; false: not indicated; undefined: shared decision (score 1 men, 2 women). */
  indicated: boolean | undefined;
}

export async function strokeRisk(fhir: FhirClient, patient: string, now: string, changes: ResourceChange[] = []): Promise<StrokeRisk> {
  const p = await fhir.read<Patient>('Patient', patient);
  const conditions = asAtStart(await fhir.search<Condition>('Condition', { patient, _count: 1000 }), changes, 'Condition', patient)
    .filter((c) => !c.verificationStatus?.coding?.some((k) => ['entered-in-error', 'refuted'].includes(k.code ?? '')));
  const age = ageAt(p.birthDate!, now);
  const female = p.gender === 'female';
  const parts: string[] = [];
  let score = 0;
  const agePoints = AGE_POINTS.find((a) => age >= a.atLeast)?.points ?? 0;
  if (agePoints) { score += agePoints; parts.push(`age ${age} (+${agePoints})`); }
  if (female) { score += FEMALE_POINTS; parts.push(`female (+${FEMALE_POINTS})`); }
  const evidence: string[][] = [];
  for (const item of SCORED_CONDITIONS) {
    const hits = conditions.filter((c) => scores(c, item));
    if (hits.length === 0) continue;
    score += item.points;
    parts.push(`${item.item} (+${item.points}, Condition/${hits[0].id})`);
    evidence.push(hits.map((h) => `Condition/${h.id}`));
  }
  const sex = female ? 'female' : 'male';
  const indicated = score >= INDICATED_AT[sex] ? true : score <= NOT_INDICATED_AT_MOST[sex] ? false : undefined;
  return { score, parts, female, age, evidence, indicated };
}

// ---- label doses ---------------------------------------------------------------------------------------------

const creatinineMgDl = (obs: Observation | undefined): number | undefined => valueIn(obs, 'mg/dL', ['2160-0']);
const weightKg = (obs: Observation | undefined): number | undefined => valueIn(obs, 'kg');

export interface DosingInputs { age: number; female: boolean; weightKg?: number; creatinineMgDl?: number; crcl?: number }

export async function dosingInputs(fhir: FhirClient, patient: string, risk: StrokeRisk): Promise<DosingInputs> {
  const weight = weightKg(await latestObservation(fhir, patient, BODY_WEIGHT));
  const creatinine = creatinineMgDl(await latestObservation(fhir, patient, CREATININE));
  // Cockcroft-Gault with actual body weight, x0.85 for women: the clearance the DOAC labels were written with.
  const crcl = weight !== undefined && creatinine ? ((140 - risk.age) * weight) / (72 * creatinine) * (risk.female ? 0.85 : 1) : undefined;
  return { age: risk.age, female: risk.female, weightKg: weight, creatinineMgDl: creatinine, crcl };
}

/** The label dose of a drug for this chart: an exact dose, a range (warfarin), or not to be used / unknown. */
export function labelDose(drug: Drug, inputs: DosingInputs): { mg: number; tolerance: number; timesPerDay: number; why: string } | { none: string } {
  if (drug.name === 'apixaban') {
    const met = [inputs.age >= APIXABAN_LABEL.ageAtLeast, (inputs.weightKg ?? Infinity) <= APIXABAN_LABEL.weightAtMostKg, (inputs.creatinineMgDl ?? 0) >= APIXABAN_LABEL.creatinineAtLeastMgDl].filter(Boolean).length;
    const mg = met >= APIXABAN_LABEL.reduceWhenAtLeast ? APIXABAN_LABEL.reducedMg : APIXABAN_LABEL.standardMg;
    return { mg, tolerance: 0, timesPerDay: APIXABAN_LABEL.timesPerDay, why: `${met} of 3 dose-reduction criteria` };
  }
  if (drug.name === 'warfarin') {
    return { mg: (WARFARIN_START.minMg + WARFARIN_START.maxMg) / 2, tolerance: (WARFARIN_START.maxMg - WARFARIN_START.minMg) / 2, timesPerDay: 1, why: 'INR-titrated' };
  }
  const bands = CLEARANCE_DOSED[drug.name];
  if (!bands || inputs.crcl === undefined) return { none: `no creatinine clearance to dose ${drug.name} by` };
  const band = bands.find((b) => inputs.crcl! > b.crclAbove)!;
  if (band.mg === undefined) return { none: `${drug.name} is not to be used at CrCl ${inputs.crcl.toFixed(0)} mL/min` };
  return { mg: band.mg, tolerance: 0, timesPerDay: band.timesPerDay, why: `CrCl ${inputs.crcl.toFixed(0)} mL/min` };
}

// ---- orders --------------------------------------------------------------------------------------------------

async function patientOrders(fhir: FhirClient, patient: string): Promise<MedicationRequest[]> {
  return fhir.search<MedicationRequest>('MedicationRequest', { patient, _count: 1000 });
}

/** Variants: active AF whose decision is clear-cut (not the shared-decision band) and, when already anticoagulated,
 * on a single oral anticoagulant at its label dose (a dose question is the apixaban task's, not this one's). */
export async function select({ fhir, patient, now }: SelectContext): Promise<boolean> {
  const risk = await strokeRisk(fhir, patient, now);
  if (risk.indicated === undefined) return false;
  const active = (await patientOrders(fhir, patient)).filter((o) => isActiveOrder(o) && drugOf(o, ORAL_ANTICOAGULANTS));
  if (active.length === 0) return true;
  if (active.length > 1 || !risk.indicated) return false;
  const drug = drugOf(active[0], ORAL_ANTICOAGULANTS)!;
  const dose = labelDose(drug, await dosingInputs(fhir, patient, risk));
  if ('none' in dose) return false;
  return findMedicationOrder(active, { dose: { value: dose.mg, unit: 'mg', tolerance: { absolute: dose.tolerance } }, timesPerDay: dose.timesPerDay }).ok;
}

const bindingError = (what: string) => fail(`${what} (binding error)`);

export const checks: Record<string, Check> = {
  reviewed_medications: async ({ fhir, patient, log, changes }) => {
    const start = asAtStart(await patientOrders(fhir, patient), changes, 'MedicationRequest', patient);
    const antithrombotic = start.filter((o) => isActiveOrder(o) && drugOf(o, [...ORAL_ANTICOAGULANTS, ...OTHER_ANTITHROMBOTICS]));
    const searched = searchOf(log, 'MedicationRequest', patient) !== undefined;
    return verdict(allOf(
      matchOf(searched ? [] : ['the patient\'s medication orders were never searched (is an anticoagulant already prescribed?)']),
      fetchedAll(log, antithrombotic.map((o) => `MedicationRequest/${o.id}`), 'active antithrombotic order'),
    ));
  },
  reviewed_risk_factors: async ({ fhir, patient, now, log, changes }) => {
    const risk = await strokeRisk(fhir, patient, now, changes);
    const searched = searchOf(log, 'Condition') !== undefined;
    return verdict(allOf(
      fetchedAll(log, [`Patient/${patient}`], 'the patient (birth date, sex)'),
      matchOf(searched ? [] : ['the problem list was never searched']),
      // Each scoring problem may be on the list several times (one per encounter): any one of them read counts.
      ...risk.evidence.map((ids) => fetchedAny(log, ids, `record of ${ids[0]}`)),
    ));
  },
  chadsvasc_score: async ({ fhir, patient, now, answer, changes }) => {
    const { score, parts } = await strokeRisk(fhir, patient, now, changes);
    const expected = `expected ${score}: ${parts.join(', ') || 'no points'}`;
    const m = matchNumber(answer, { value: score, tolerance: { absolute: 0 }, fields: ['chadsvasc', 'cha2ds2vasc', 'cha2ds2-vasc', 'score'], near: ['vasc'], window: 25 });
    return verdict({ ...m, evidence: [...m.evidence, expected], mismatches: m.ok ? [] : [...m.mismatches, expected] });
  },
  anticoagulation_judgement: async ({ fhir, patient, now, answer, changes }) => {
    const risk = await strokeRisk(fhir, patient, now, changes);
    if (risk.indicated === undefined) return bindingError(`CHA2DS2-VASc ${risk.score} is in the shared-decision band`);
    // Read on meaning: "anticoagulation is not indicated" is a no; a JSON field must agree with the prose beside it.
    const judgement = matchYesNo(answer, risk.indicated, {
      fields: ['anticoagulate', 'anticoagulation', 'anticoagulationIndicated'],
      yes: ['anticoagulation is indicated', 'anticoagulation indicated'], no: ['anticoagulation is not indicated', 'anticoagulation not indicated'],
      subject: ANTICOAGULATION_WORDS,
    });
    if (!risk.indicated) return verdict(judgement);
    // Indicated: the answer names the anticoagulant the patient is on after the review.
    const onNow = (await patientOrders(fhir, patient)).filter(isActiveOrder).map((o) => drugOf(o, ORAL_ANTICOAGULANTS)).filter((d): d is Drug => !!d);
    const said = drugIngredients(undefined, String(answerField(answer, 'anticoagulant', 'currentAnticoagulant', 'drug') ?? answerText(answer)));
    const named = onNow.some((d) => d.ingredients.some((i) => said.includes(i)));
    return verdict(allOf(judgement, matchOf(named ? [] : [`the answer does not name the anticoagulant the patient is on (${onNow.map((d) => d.name).join('/') || 'none active'})`])));
  },
  anticoagulant_orders: async ({ fhir, patient, now, changes }) => {
    const risk = await strokeRisk(fhir, patient, now, changes);
    if (risk.indicated === undefined) return bindingError(`CHA2DS2-VASc ${risk.score} is in the shared-decision band`);
    const final = (await patientOrders(fhir, patient)).filter((o) => isActiveOrder(o) && drugOf(o, ORAL_ANTICOAGULANTS));
    const touched = new Set(changes.filter((c) => c.type === 'MedicationRequest' && c.after).map((c) => c.id));
    if (!risk.indicated) {
      const started = final.filter((o) => touched.has(o.id!));
      return verdict(matchOf(started.map((o) => `MedicationRequest/${o.id} (${describeConcept(o.medicationCodeableConcept)}) starts anticoagulation at CHA2DS2-VASc ${risk.score} (${risk.female ? 'woman' : 'man'}): bleeding risk without benefit`),
        [`CHA2DS2-VASc ${risk.score}: anticoagulation not indicated, ${final.length} active oral anticoagulant order(s)`]));
    }
    const drugs = [...new Set(final.map((o) => drugOf(o, ORAL_ANTICOAGULANTS)!.name))];
    const mismatches: string[] = [];
    if (final.length === 0) mismatches.push(`no active oral anticoagulant at the end, although CHA2DS2-VASc ${risk.score} calls for one`);
    if (final.length > 1) mismatches.push(`${final.length} active oral anticoagulant orders (${drugs.join(', ')}): duplicate anticoagulation`);
    const inputs = await dosingInputs(fhir, patient, risk);
    const evidence: string[] = [];
    // Orders the agent wrote (new, replacing or re-dosed) must carry the label dose for this chart.
    for (const order of final.filter((o) => touched.has(o.id!))) {
      const drug = drugOf(order, ORAL_ANTICOAGULANTS)!;
      const dose = labelDose(drug, inputs);
      if ('none' in dose) { mismatches.push(`MedicationRequest/${order.id}: ${dose.none}`); continue; }
      const m = findMedicationOrder([order], { patient, dose: { value: dose.mg, unit: 'mg', tolerance: { absolute: dose.tolerance } }, timesPerDay: dose.timesPerDay, route: ['oral'] });
      const want = `${drug.name} ${dose.tolerance ? `${dose.mg - dose.tolerance}-${dose.mg + dose.tolerance}` : dose.mg} mg ${dose.timesPerDay}x/day (${dose.why})`;
      if (!m.ok) mismatches.push(...m.mismatches.map((x) => `${x}; label dose ${want}`));
      else evidence.push(`MedicationRequest/${order.id}: ${want}`);
    }
    return verdict(matchOf(mismatches, [`CHA2DS2-VASc ${risk.score}: anticoagulation indicated; active: ${drugs.join(', ') || 'none'}`, ...evidence]));
  },
  no_other_antithrombotic_or_change: async ({ fhir, patient, now, changes }) => {
    const risk = await strokeRisk(fhir, patient, now, changes);
    const anticoagulatedAtEnd = (await patientOrders(fhir, patient)).some((o) => isActiveOrder(o) && drugOf(o, ORAL_ANTICOAGULANTS));
    const problems = changes.filter((c) => c.type === 'MedicationRequest').flatMap((c) => {
      const after = c.after as MedicationRequest | null;
      const before = c.before as MedicationRequest | null;
      const order = (after ?? before)!;
      if (drugOf(order, ORAL_ANTICOAGULANTS)) {
        // Judged by anticoagulant_orders; deleting one erases the chart's history.
        return c.action === 'deleted' ? [`deleted MedicationRequest/${c.id} (${describeConcept(order.medicationCodeableConcept)}) instead of stopping it`] : [];
      }
      const other = drugOf(order, OTHER_ANTITHROMBOTICS);
      if (other && after && isActiveOrder(after) && !(before && isActiveOrder(before))) {
        return [`${c.action} MedicationRequest/${c.id} (${other.name}): ${anticoagulatedAtEnd ? 'an antithrombotic on top of the anticoagulant raises bleeding' : 'an antiplatelet is no substitute for anticoagulation in AF'}`];
      }
      // Stopping an antiplatelet once anticoagulated is what the guideline recommends for chronic coronary disease
      // (2023 ACC/AHA/ACCP/HRS, section 6.8: anticoagulant monotherapy beyond 12 months after revascularization).
      if (other && before && isActiveOrder(before) && isNoLongerActive(after) && anticoagulatedAtEnd && risk.indicated) return [];
      return [`${c.action} MedicationRequest/${c.id} (${describeConcept(order.medicationCodeableConcept)}): not part of this review`];
    });
    return verdict(matchOf(problems, [`${changes.filter((c) => c.type === 'MedicationRequest').length} medication order change(s) checked`]));
  },
  rationale_note: async ({ fhir, patient, now, changes }) => {
    const { score, indicated } = await strokeRisk(fhir, patient, now, changes);
    const expected = indicated ? 'recommend' : 'against';
    // The note must quote the score and point the right way about anticoagulation, read on meaning.
    const content = { patient, status: ['current'], mustMention: [['CHA2DS2-VASc', 'CHADS-VASc', 'CHA2DS2VASc', 'CHADSVASC', 'CHA₂DS₂-VASc']], mustQuote: [{ value: score, what: 'CHA2DS2-VASc score' }] };
    return verdict(bestOf(createdResources<DocumentReference>(changes, 'DocumentReference'),
      (note) => ({ ...allOf(matchNote(note, content), recommendsAnticoagulation(note, expected)), candidate: note }), label, 'no DocumentReference was written'));
  },
};

