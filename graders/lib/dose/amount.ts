// The dose of one administration, in an amount of drug whenever the order lets a pharmacist know it: a stated amount
// ("10 mg", "500 mcg", "milligram") as it is; a count of dose units ("1 {tbl}", "2 tablet", "1 capsule", a value
// with no unit, "2 puffs") times the product's strength per unit; a volume times a concentration; else the sig text.
// A dose that cannot be known (5 mL of a solution whose concentration the order does not state) stays in its stated
// unit, so comparing it with an amount fails instead of guessing.
import type { Dosage, Quantity } from '@medplum/fhirtypes';
import { convert, doseUnitKind, ucumCode } from '../../../resources/units/ucum.ts';
import { doseInText } from './sig.ts';
import { strengthFor, type IngredientStrength, type MedicationSource } from './strength.ts';

export interface DoseReading {
  value: number;
  /** UCUM code of the amount (mg, ug, [iU], mmol, mL) or, when no strength is known, of the count ({tbl}, or ''). */
  unit: string;
  /** What the order wrote, when the amount was derived from it ("1 {tbl}"). */
  stated?: { value: number; unit: string };
  /** How it was read, for evidence ("1 {tbl} x 10 mg", "text \"10mg PO daily\""). */
  reading: string;
}

export interface DoseOptions {
  /**
   * Which ingredient's dose, for a combination product (RxNorm ingredient RXCUIs or names): the lisinopril dose of
   * lisinopril 20 MG / hydrochlorothiazide 12.5 MG is 20 mg. A single-ingredient product needs none.
   */
  ingredients?: string[];
}

function quantityUnit(q: Quantity): string {
  return q.system === 'http://unitsofmeasure.org' && q.code ? q.code : (q.unit ?? q.code ?? '');
}

/** The amount in `count` dose units of kind `kind` ('' = no unit written) for a strength, if they fit together. */
function countTimesStrength(count: number, kind: string, strength: IngredientStrength | undefined): { value: number; unit: string } | undefined {
  if (!strength) return undefined;
  // A solid unit (tablet, capsule, each, a bare number) takes a per-unit strength; a puff a per-actuation one.
  const fits = kind === '{actuat}' ? strength.per === '{actuat}' || strength.per === '' : strength.per === '' && kind !== '{drop}';
  if (!fits || strength.perValue !== 1) return undefined;
  return { value: count * strength.value, unit: strength.unit };
}

/** The amount in a volume of a solution of known concentration ("5 mL" of 50 MG/ML = 250 mg), if it has one. */
function volumeTimesConcentration(value: number, unit: string, strength: IngredientStrength | undefined): { value: number; unit: string } | undefined {
  if (!strength || !strength.per) return undefined;
  const inPerUnit = convert(value, unit, strength.per);
  if (inPerUnit === undefined || strength.per === '{actuat}') return undefined;
  return { value: (inPerUnit / strength.perValue) * strength.value, unit: strength.unit };
}

function isVolume(unit: string): boolean {
  return convert(1, unit, 'mL') !== undefined;
}

/**
 * The dose per administration of a dosage, for a product (`medication`: its concept, Medication resource or name).
 * Reads doseAndRate.doseQuantity (or a doseRange whose low and high agree), else Dosage.text and patientInstruction.
 */
export function readDose(dosage: Dosage | undefined, medication?: MedicationSource, options: DoseOptions = {}): DoseReading | undefined {
  const strength = strengthFor(medication, options.ingredients);
  const strengthOfUnit = (kind: string) => countTimesStrength(1, kind, strength);
  for (const dr of dosage?.doseAndRate ?? []) {
    const range = dr.doseRange;
    const q = dr.doseQuantity ?? (range?.low?.value !== undefined && range.low.value === range.high?.value ? range.low : undefined);
    if (q?.value === undefined) continue;
    const written = quantityUnit(q);
    const unit = ucumCode(written) === '1' ? '' : ucumCode(written);
    const kind = unit === '' ? '' : doseUnitKind(written);
    const stated = { value: q.value, unit: unit || written };
    if (kind !== undefined) {
      const amount = countTimesStrength(q.value, kind, strength);
      if (amount) return { ...amount, stated, reading: `${q.value} ${written || '(no unit)'} x ${strength!.value} ${strength!.unit}` };
      // The count's total may still be written in the sig ("2 tablets (200 mg)").
      const fromText = doseInText(dosage?.text, strengthOfUnit) ?? doseInText(dosage?.patientInstruction, strengthOfUnit);
      if (fromText && doseUnitKind(fromText.unit) === undefined && fromText.unit !== '') return { value: fromText.value, unit: fromText.unit, stated, reading: `text ${fromText.reading}` };
      return { ...stated, reading: `${q.value} ${written || '(no unit)'} (strength of one unit unknown)` };
    }
    if (isVolume(unit)) {
      const amount = volumeTimesConcentration(q.value, unit, strength);
      if (amount) return { ...amount, stated, reading: `${q.value} ${written} x ${strength!.value} ${strength!.unit}/${strength!.perValue === 1 ? '' : strength!.perValue}${strength!.per}` };
    }
    return { ...stated, reading: `${q.value} ${written}` };
  }
  for (const [field, text] of [['Dosage.text', dosage?.text], ['patientInstruction', dosage?.patientInstruction]] as const) {
    const d = doseInText(text, strengthOfUnit);
    if (d) return { value: d.value, unit: d.unit, reading: `${field} ${d.reading}` };
  }
  return undefined;
}

/** The dose in `unit` (e.g. 'mg'), or undefined when it is not known in a unit convertible to it. */
export function doseIn(dosage: Dosage | undefined, unit: string, medication?: MedicationSource, options: DoseOptions = {}): number | undefined {
  const d = readDose(dosage, medication, options);
  return d ? convert(d.value, d.unit, unit) : undefined;
}

/** The product's strength per dose unit in `unit` ("levothyroxine sodium 0.1 MG Oral Tablet" -> 100 mcg), if known. */
export function strengthIn(medication: MedicationSource, unit: string, options: DoseOptions = {}): number | undefined {
  const s = strengthFor(medication, options.ingredients);
  if (!s || s.per !== '' || s.perValue !== 1) return undefined;
  return convert(s.value, s.unit, unit);
}
