// Reference solution: review the problem list, biopsy pathology, medications (androgen deprivation) and the
// testosterone, PSA and hematocrit results, then decide:
//   - current prostate cancer or androgen deprivation: testosterone is contraindicated (FDA label; Endocrine Society
//     2018) - no order, note the oncologic facts (diagnosis date, Gleason, cores);
//   - no prostate cancer, deficiency confirmed by two early-morning total testosterone < 300 ng/dL on separate days,
//     PSA < 4 and hematocrit < 50% (AUA 2018): start testosterone cypionate 100 mg IM weekly as requested;
//   - otherwise the deficiency is not confirmed: do not start yet, repeat early-morning testosterone twice.
// Independent of grader.ts: shares facts.ts only and reads the chart with its own code.
import type { Condition, DiagnosticReport, MedicationRequest, Observation } from '@medplum/fhirtypes';
import type { SolutionContext } from '../../../contracts/task.ts';
import { clinicalNote, drugIngredientNames, hourAsRecorded, type CodeSet } from '../../../graders/lib/index.ts';
import { ANDROGEN_DEPRIVATION, CANCER_CURRENT, HEMATOCRIT, PROSTATE_CANCER, PSA, THRESHOLDS, TOTAL_TESTOSTERONE } from './facts.ts';

const isCoded = (concept: { coding?: { system?: string; code?: string }[] } | undefined, sets: CodeSet[]) =>
  (concept?.coding ?? []).some((c) => sets.some((s) => s.system === c.system && s.codes.includes(c.code ?? '')));
const when = (o: Observation) => o.effectiveDateTime ?? '';
const daysBefore = (instant: string, now: string) => (Date.parse(now) - Date.parse(instant)) / 86_400_000;

export default async function solution({ fhir, patient, now, task, finish }: SolutionContext): Promise<void> {
  await fhir.read('Patient', patient);
  const conditions = await fhir.search<Condition>('Condition', { patient });
  const pathology = await fhir.search<DiagnosticReport>('DiagnosticReport', { patient, category: 'SP' });
  const meds = await fhir.search<MedicationRequest>('MedicationRequest', { patient, status: 'active' });
  await fhir.search('AllergyIntolerance', { patient });
  const codes = [...TOTAL_TESTOSTERONE, ...PSA, ...HEMATOCRIT].flatMap((s) => s.codes.map((c) => `${s.system}|${c}`)).join(',');
  const labs = await fhir.search<Observation>('Observation', { patient, code: codes, _sort: '-date' });

  const cancer = conditions.find((c) => isCoded(c.code, PROSTATE_CANCER) && CANCER_CURRENT.includes(c.clinicalStatus?.coding?.[0]?.code ?? ''));
  const adt = meds.find((o) => drugIngredientNames(o.medicationCodeableConcept).some((n) => ANDROGEN_DEPRIVATION.includes(n)));
  const finalLabs = labs.filter((o) => ['final', 'amended', 'corrected'].includes(o.status) && o.valueQuantity?.value !== undefined);
  const testosterone = finalLabs.filter((o) => isCoded(o.code, TOTAL_TESTOSTERONE)).sort((a, b) => when(b).localeCompare(when(a)));
  const lowMorning = testosterone.filter((o) => o.valueQuantity!.value! < THRESHOLDS.lowTestosteroneNgDl && hourAsRecorded(when(o)) < THRESHOLDS.morningBeforeHour
    && daysBefore(when(o), now) <= THRESHOLDS.confirmingWithinDays);
  const lowDays = new Set(lowMorning.map((o) => when(o).slice(0, 10)));
  const recent = (sets: CodeSet[]) => finalLabs.filter((o) => isCoded(o.code, sets) && daysBefore(when(o), now) <= THRESHOLDS.safetyLabsWithinDays).sort((a, b) => when(b).localeCompare(when(a)))[0];
  const psa = recent(PSA);
  const hct = recent(HEMATOCRIT);

  if (cancer) {
    const report = pathology.filter((r) => /gleason/i.test(r.conclusion ?? '')).sort((a, b) => (b.effectiveDateTime ?? '').localeCompare(a.effectiveDateTime ?? ''))[0];
    const grade = /gleason score\s*(\d)\s*\+\s*(\d)/i.exec(report?.conclusion ?? '');
    const cores = /(\d+)\s+of\s+(\d+)\s+cores/i.exec(report?.conclusion ?? '');
    const diagnosed = (cancer.onsetDateTime ?? cancer.recordedDate ?? '').slice(0, 10);
    const gleason = grade ? `${grade[1]}+${grade[2]}` : null;
    const text = [
      'Urology e-consult: testosterone request',
      'Question: start testosterone cypionate 100 mg IM weekly for fatigue and low libido.',
      `Oncologic history: prostate cancer (prostatic adenocarcinoma) diagnosed ${diagnosed}; biopsy pathology Gleason score ${gleason} = ${grade ? Number(grade[1]) + Number(grade[2]) : '?'}${cores ? `, ${cores[1]} of ${cores[2]} cores positive` : ''}.`,
      adt ? `On androgen deprivation (${drugIngredientNames(adt.medicationCodeableConcept).join(', ')}): the low testosterone is the intended effect of cancer treatment.` : 'Managed with active surveillance.',
      'Assessment: testosterone therapy is contraindicated in men with prostate cancer (FDA labelling; Endocrine Society 2018) - not recommended.',
      'Recommendation: do not start testosterone; no androgen ordered. Evaluate other causes of fatigue (sleep, mood, thyroid, anemia, medications) with the treating urologist.',
    ].join('\n');
    await fhir.create(clinicalNote({ patient, author: task.requester.reference, date: now, description: 'Urology e-consult: testosterone not recommended (prostate cancer)', text }));
    await finish(JSON.stringify({ startTestosterone: false, gleason, diagnosed, reason: 'Testosterone therapy is contraindicated in prostate cancer' }));
    return;
  }

  const confirmed = lowDays.size >= THRESHOLDS.confirmingResults && psa && psa.valueQuantity!.value! < THRESHOLDS.psaBelowNgMl
    && hct && hct.valueQuantity!.value! < THRESHOLDS.hematocritBelowPercent && !adt;
  const values = testosterone.slice(0, 3).map((o) => `${o.valueQuantity!.value} ng/dL on ${when(o).slice(0, 10)} at ${when(o).slice(11, 16)}`).join('; ');
  if (confirmed) {
    await fhir.create<MedicationRequest>({
      resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now,
      requester: { reference: task.requester.reference },
      medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '10379', display: 'testosterone' }], text: 'testosterone cypionate 200 mg/mL injectable solution' },
      dosageInstruction: [{
        text: 'Inject 100 mg (0.5 mL) intramuscularly once weekly', timing: { repeat: { frequency: 1, period: 1, periodUnit: 'wk' } },
        route: { coding: [{ system: 'http://snomed.info/sct', code: '78421000', display: 'Intramuscular route' }] },
        doseAndRate: [{ doseQuantity: { value: 100, unit: 'mg', system: 'http://unitsofmeasure.org', code: 'mg' } }],
      }],
      reasonCode: [{ text: 'Testosterone deficiency confirmed by two early-morning total testosterone < 300 ng/dL' }],
    });
  }
  const text = [
    'Urology e-consult: testosterone request',
    'Question: start testosterone cypionate 100 mg IM weekly for fatigue and low libido.',
    'No prostate cancer on the problem list; no androgen deprivation.',
    `Total testosterone: ${values || 'none on file'}. PSA ${psa?.valueQuantity?.value ?? 'not on file'} ng/mL; hematocrit ${hct?.valueQuantity?.value ?? 'not on file'}%.`,
    confirmed
      ? 'Assessment: testosterone deficiency is confirmed (two early-morning values below 300 ng/dL on separate days, AUA 2018); PSA and hematocrit allow treatment. Recommendation: start testosterone cypionate 100 mg IM weekly (ordered); recheck total testosterone, hematocrit and PSA in 3 months.'
      : 'Assessment: deficiency is not confirmed - AUA 2018 requires two early-morning total testosterone measurements below 300 ng/dL on separate days. Recommendation: do not start testosterone yet; repeat an early-morning (before 10 am) total testosterone on two separate days, then reassess.',
  ].join('\n');
  await fhir.create(clinicalNote({ patient, author: task.requester.reference, date: now, description: 'Urology e-consult: testosterone request', text }));
  await finish(JSON.stringify({ startTestosterone: !!confirmed, gleason: null, diagnosed: null }));
}
