// Never opens the chart: halves "the" metformin in words, orders nothing for the drug, answers with a made-up eGFR.
import type { CaseContext } from '../../../../../contracts/case-http.ts';

export const description = 'blind agent: made-up eGFR 40 and 1000 mg/day, only a BMP ordered';
export const catches = ['reviewed_egfr', 'stated_egfr'];

export default async function ({ http, patient, now, submit }: CaseContext): Promise<void> {
  await http.create({ resourceType: 'ServiceRequest', status: 'active', intent: 'order', subject: { reference: `Patient/${patient}` }, authoredOn: now, code: { coding: [{ system: 'http://loinc.org', code: '51990-0' }] } });
  await submit({ egfr: 40, dailyDoseMg: 1000 });
}
