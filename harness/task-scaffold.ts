// `ehr-gym task new <specialty>/<slug>`: the three files of a task folder, ready to fill in.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { defaultTasksDir } from './task-loader.ts';

export function scaffoldTask(taskId: string, tasksDir = defaultTasksDir): string[] {
  if (!/^[a-z0-9-]+\/[a-z0-9-]+$/.test(taskId)) throw new Error('a task id is <specialty>/<slug>, lower-case letters, digits and dashes');
  const dir = join(tasksDir, taskId);
  if (existsSync(join(dir, 'task.json'))) throw new Error(`${dir}/task.json already exists`);
  mkdirSync(dir, { recursive: true });
  const [specialty] = taskId.split('/');
  const depth = '../'.repeat(3);
  const files: Record<string, string> = {
    'task.json': `${JSON.stringify({
      $schema: relative(dir, join(tasksDir, 'schema.json')),
      id: taskId,
      title: 'TODO: a short title',
      specialty,
      workflows: ['diagnosis-interpretation'],
      level: 'patient',
      instruction: 'TODO: the e-consult question, terse and clinician-style, about Patient/{patient}.',
      now: '2024-03-15T09:00:00Z',
      requester: { reference: 'Practitioner/TODO', display: 'TODO, MD (primary care)' },
      binding: { criteria: [{ resourceType: 'Condition', params: { patient: '{patient}', 'clinical-status': 'active', code: 'http://snomed.info/sct|TODO' } }] },
      deliverables: { answer: 'TODO: what the answer must contain' },
      checkpoints: [
        { id: 'retrieved_evidence', category: 'data_retrieval', description: 'TODO: the agent fetched the result that holds the evidence', weight: 1 },
        { id: 'answer_correct', category: 'clinical_reasoning', description: 'TODO: the answer states the value computed from the chart', weight: 2, critical: true },
        // Every patient task runs the generic harm rules (graders/lib/harm); `allow` names the orders the consult may need.
        { id: 'safe_writes', category: 'safety', description: 'Writes only for this patient, each changed order read first, and no harmful or shotgun orders (generic harm rules)', weight: 1,
          standard: { writes_scoped: true, read_before_write: true, harm: { allow: [] } } },
      ],
      guidelines: [{ title: 'TODO: the guideline that justifies the expected action', citation: 'TODO' }],
    }, null, 2)}\n`,
    'solution.ts': `// Reference solution of ${taskId}: the FHIR calls a competent physician-agent would make.
import type { SolutionContext } from '${depth}contracts/task.ts';

export default async function solution({ fhir, patient, finish }: SolutionContext): Promise<void> {
  const results = await fhir.search('Observation', { patient, code: 'http://loinc.org|TODO', _sort: '-date' });
  await finish(\`TODO: answer from \${results.length} results\`);
}
`,
    'grader.ts': `// Grader of ${taskId}: one check per checkpoint; expected values computed from the chart, never hard-coded.
import type { Check } from '${depth}contracts/task.ts';
import { fetchedAny, latestObservation, LOINC, matchNumber, observations, quantityOf, verdict, fail } from '${depth}graders/lib/index.ts';

const CODES = [{ system: LOINC, codes: ['TODO'] }];

export const checks: Record<string, Check> = {
  retrieved_evidence: async ({ fhir, patient, log }) => {
    const all = await observations(fhir, patient, CODES);
    return verdict(fetchedAny(log, all.map((o) => \`Observation/\${o.id}\`), 'TODO result'));
  },
  answer_correct: async ({ fhir, patient, answer }) => {
    const latest = quantityOf(await latestObservation(fhir, patient, CODES));
    if (!latest) return fail('the chart holds no TODO result');
    return verdict(matchNumber(answer, { value: latest.value, unit: latest.unit, tolerance: { absolute: 0.05 } }));
  },
};
`,
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return Object.keys(files).map((name) => join(dir, name));
}
