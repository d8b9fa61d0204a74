// Terminology figures for `npm run bench`: index build time, then p50/p95 of $expand with a filter and of $lookup
// over the full tables (HL7 definitions + seed tables + supplement), called through the service the operations use.
import { sharedTerminology, terminologyBuildMillis } from '../resources/terminology/index.ts';
import { codeTables } from '../seed/codes/index.ts';

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

function time(runs: number, fn: (i: number) => void): { p50: number; p95: number } {
  for (let i = 0; i < Math.min(runs, 50); i++) fn(i);
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    fn(i);
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 0.5), p95: percentile(samples, 0.95) };
}

export async function benchTerminology(): Promise<string> {
  const service = sharedTerminology();
  void service.index; // builds it, so the build time is known
  const build = terminologyBuildMillis();
  const loinc = service.requireValueSet('http://loinc.org/vs');
  const snomed = service.requireValueSet('http://snomed.info/sct?fhir_vs');
  const observationCodes = service.requireValueSet('http://hl7.org/fhir/ValueSet/observation-codes');
  const filters = ['potassium', 'glu', 'hemo', 'creat', 'chol', 'blood pressure', 'sodium ser'];
  const codes = codeTables.flatMap((t) => Object.keys(t.concepts).map((code) => [t.system, code] as const));
  const v3 = service.index.codeSystem('http://terminology.hl7.org/CodeSystem/v3-ActCode')!;
  const actCodes = [...v3.concepts.keys()];
  const rows: [string, { p50: number; p95: number }][] = [
    ['$expand http://loinc.org/vs filter (7 queries)', time(2000, (i) => service.expand(loinc, { filter: filters[i % filters.length], count: 10 }))],
    ['$expand SNOMED ?fhir_vs filter', time(2000, (i) => service.expand(snomed, { filter: ['diab', 'kidney', 'heart fail'][i % 3], count: 10 }))],
    ['$expand observation-codes (all LOINC) filter', time(2000, (i) => service.expand(observationCodes, { filter: filters[i % filters.length], count: 10 }))],
    [`$lookup every seed code (${codes.length})`, time(5000, (i) => service.lookup(codes[i % codes.length][0], codes[i % codes.length][1]))],
    [`$lookup v3-ActCode (${actCodes.length} concepts)`, time(5000, (i) => service.lookup(v3.url, actCodes[i % actCodes.length]))],
  ];
  const systems = service.index.codeSystems.size;
  const concepts = [...service.index.codeSystems.values()].reduce((n, cs) => n + cs.concepts.size, 0);
  return [
    '## Terminology',
    '',
    `Index: ${systems} code systems, ${concepts} concepts, ${service.index.valueSets.size} value sets, ${service.index.conceptMaps.size} concept maps; built lazily in ${build.toFixed(0)} ms (first terminology call of the process).`,
    '',
    '| call | p50 ms | p95 ms |',
    '|---|---|---|',
    ...rows.map(([name, r]) => `| ${name} | ${r.p50.toFixed(3)} | ${r.p95.toFixed(3)} |`),
    '',
    'Target: p50 < 5 ms for both $expand with a filter and $lookup.',
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await benchTerminology());
