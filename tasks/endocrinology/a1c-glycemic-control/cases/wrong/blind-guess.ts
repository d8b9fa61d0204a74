// Never opens the chart: answers with a typical value for a patient with type 2 diabetes.
import type { CaseContext } from '../../../../../contracts/case-http.ts';

export const description = 'blind agent: answers a typical A1c without reading the chart';
export const catches = ['retrieved_latest_a1c'];

export default async function ({ submit }: CaseContext): Promise<void> {
  await submit(JSON.stringify({ hba1c: 7.6, atGoal: false }));
}
