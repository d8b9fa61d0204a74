// SQL on FHIR: active orders (text and coding displays joined) and hemoglobin results through ViewDefinition/$run,
// joined here; answer text around the JSON.
import type { CaseContext } from '../../../../../contracts/case-http.ts';

export const description = 'ViewDefinition/$run over MedicationRequest and Observation; JSON wrapped in prose';

const run = <T>(http: CaseContext['http'], view: unknown) => http.request<T[]>('POST', 'ViewDefinition/$run', { resourceType: 'Parameters', parameter: [{ name: 'viewResource', resource: view }] });
const OAC = /warfarin|coumadin|jantoven|apixaban|eliquis|rivaroxaban|xarelto|edoxaban|savaysa|dabigatran|pradaxa/i;

export default async function ({ http, now, submit }: CaseContext): Promise<void> {
  const orders = await run<{ patient: string; label: string | null }>(http, {
    resourceType: 'ViewDefinition', name: 'rx', resource: 'MedicationRequest', status: 'active',
    select: [{ column: [{ name: 'patient', path: 'subject.getReferenceKey(Patient)' }, { name: 'label', path: "(medication.ofType(CodeableConcept).text | medication.ofType(CodeableConcept).coding.display).join(' ')" }] }],
    where: [{ path: "status = 'active'" }],
  });
  const hgb = await run<{ patient: string; effective: string }>(http, {
    resourceType: 'ViewDefinition', name: 'hgb', resource: 'Observation', status: 'active',
    select: [{ column: [{ name: 'patient', path: 'subject.getReferenceKey(Patient)' }, { name: 'effective', path: 'effective.ofType(dateTime)' }] }],
    where: [
      { path: "code.coding.where((system = 'http://loinc.org' and code = '718-7') or (system = 'http://ehr-gym.example/fhir/CodeSystem/flowsheet' and code = 'HGB')).exists()" },
      { path: "status != 'entered-in-error'" }, { path: 'value.ofType(Quantity).value.exists()' },
    ],
  });
  const patients = [...new Set(orders.filter((o) => OAC.test(o.label ?? '')).map((o) => o.patient))];
  const to = Date.parse(now);
  const checked = new Set(hgb.filter((h) => { const t = Date.parse(h.effective); return t <= to && t >= to - 182 * 86400_000; }).map((h) => h.patient));
  const gaps = patients.filter((p) => !checked.has(p));
  await submit(`Summary below.\n${JSON.stringify({ anticoagulated: patients.length, withoutHemoglobin6mo: gaps.length, patients: gaps.map((p) => `Patient/${p}`) })}\nAll others had a hemoglobin in the window.`);
}
