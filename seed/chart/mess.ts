// Where the messy-EHR defects enter a chart (the rates are in ../mess.ts). Every draw comes from the chart's own mess
// stream, so `--clean` (all rates 0) changes the defects and nothing else. Results marked reliable (the diagnostic
// evidence tasks depend on) never lose their LOINC code, their value or their place in the flowsheet.
import type { CodeableConcept, Coding, Observation, Quantity } from '@medplum/fhirtypes';
import { FLOWSHEET, HL7, LOINC, RXNORM, codingOf } from '../codes/index.ts';
import type { LabDef } from '../codes/labs.ts';
import type { MessRates } from '../mess.ts';
import type { Rng } from '../random.ts';
import { cc } from './fhir-values.ts';
import type { Drug } from './types.ts';

/** What the mess does to one stored result (ChartMess.resultFate). */
export interface ResultFate {
  noValue: boolean;
  duplicateId?: string;
  enteredInErrorId?: string;
  corrected?: boolean;
}

export class ChartMess {
  constructor(private readonly rng: Rng, readonly rates: MessRates) {}

  /** A timestamp written in the clinic's local offset instead of UTC: real feeds mix the two. */
  localTime(): boolean {
    return this.rates.tzOffset > 0 && this.rng.chance(this.rates.tzOffset);
  }

  /** The result exists only in the note text (an outside lab never entered in the flowsheet). */
  onlyInNote(reliable: boolean): boolean {
    return !reliable && this.rng.chance(this.rates.noteOnly);
  }

  /** A lab result's coding: LOINC, LOINC plus the local flowsheet code, or (unreliable results) the local code alone. */
  labCoding(def: LabDef, reliable: boolean): Coding[] {
    if (!reliable && this.rng.chance(this.rates.localCodeOnly)) return [codingOf(FLOWSHEET, def.local)];
    const coding = [codingOf(LOINC, def.loinc)];
    this.localCodeBeside(coding, def.local);
    return coding;
  }

  /** Add the local flowsheet code beside the standard coding. */
  localCodeBeside(coding: Coding[], local: string): void {
    if (this.rng.chance(this.rates.localCodeBeside)) coding.push(codingOf(FLOWSHEET, local));
  }

  /** The result reported in the lab's alternative unit (mmol/L glucose, umol/L creatinine), when it has one. */
  alternativeUnit(def: LabDef): boolean {
    return !!def.alt && this.rng.chance(this.rates.unitVariant);
  }

  /**
   * A result's fate, decided when it is ordered (the value may be drawn later): no value (the specimen could not be
   * resulted), stored twice, a wrong value entered in error beside it, or the result marked corrected. The copies'
   * ids are taken now.
   */
  resultFate(reliable: boolean, newId: () => string): ResultFate {
    const fate: ResultFate = { noValue: !reliable && this.rng.chance(this.rates.missingValue) };
    if (!reliable && this.rng.chance(this.rates.duplicate)) fate.duplicateId = newId();
    if (!reliable && this.rng.chance(this.rates.enteredInError)) fate.enteredInErrorId = newId();
    else if (!reliable && this.rng.chance(this.rates.corrected)) fate.corrected = true;
    return fate;
  }

  /** Apply a result's fate to it; returns the extra copies to store after it (`wrongValue` for the one in error). */
  applyFate(obs: Observation, fate: ResultFate, wrongValue: Quantity): Observation[] {
    if (fate.noValue) {
      delete obs.valueQuantity;
      delete obs.interpretation;
      obs.dataAbsentReason = cc(HL7.dataAbsentReason, 'error', 'Specimen hemolyzed');
    }
    const copies: Observation[] = [];
    if (fate.duplicateId) copies.push({ ...obs, id: fate.duplicateId });
    if (fate.enteredInErrorId) {
      copies.push({ ...obs, id: fate.enteredInErrorId, status: 'entered-in-error', valueQuantity: wrongValue, note: [{ text: 'Result entered on wrong patient; see corrected result.' }] });
    } else if (fate.corrected) {
      obs.status = 'corrected';
      obs.note = [{ text: 'Corrected result: reference range updated by the laboratory.' }];
    }
    return copies;
  }

  /** A second prescriber's duplicate order is kept (and labelled) rather than reconciled. */
  plantDuplicateOrder(): boolean {
    return this.rates.duplicateOrder > 0 && this.rng.chance(this.rates.duplicateOrder);
  }

  /** A medication order's drug: RxNorm-coded, or free text only (a search by code misses it). */
  medication(drug: Drug): CodeableConcept {
    return this.rng.chance(this.rates.freeTextMed)
      ? { text: `${drug.product.split(' ')[0]} ${drug.dose} ${drug.doseUnit} - see sig` }
      : { coding: [codingOf(RXNORM, drug.rxcui)], text: drug.product };
  }
}
