// Every example resource HL7 publishes with FHIR R4 (npm package hl7.fhir.r4.examples 4.0.1) passes the validator
// every write goes through (validateResource: schema, required elements, ids, reference forms). Reference
// resolution against a server does not apply to standalone examples. A handful of examples break R4's own rules;
// each such file is listed below with the issues it is allowed to have and why, so that nothing else about it may fail.
import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { validateResource } from '../../../resources/validation/validate.ts';

const require = createRequire(import.meta.url);
const examplesDir = dirname(require.resolve('hl7.fhir.r4.examples/package.json'));

interface KnownDefect {
  files: RegExp;
  /** Every issue of a matching file names an element matching this; at least one does. */
  expressions: RegExp;
  reason: string;
}

const KNOWN_DEFECTS: KnownDefect[] = [
  {
    files: /^SearchParameter-(codesystem|valueset)-extensions-(CodeSystem|ValueSet)-(author|effective|end|keyword|workflow)\.json$/,
    expressions: /^SearchParameter\.base$/,
    reason: 'generated for extensions without a base; SearchParameter.base is 1..* in R4',
  },
  {
    files: /^SearchParameter-questionnaireresponse-extensions-QuestionnaireResponse-item-subject\.json$/,
    expressions: /^SearchParameter\.id$/,
    reason: 'its id has 67 characters; the id grammar allows at most 64',
  },
  {
    files: /^(ImplementationGuide-fhir|ig-r4)\.json$/,
    expressions: /^ImplementationGuide\.(name|status|manifest\.resource\[\d+\]\.reference\.reference)$/,
    reason: 'the publication manifest has no name or status (both 1..1) and lists the SearchParameter with the 67-character id',
  },
  {
    files: /^Questionnaire-qs1\.json$/,
    expressions: /^Questionnaire(\.item\[\d+\])+\.linkId$/,
    reason: 'nested display items have no linkId (Questionnaire.item.linkId is 1..1)',
  },
];

t.test('every HL7 R4 example resource validates', (t) => {
  const rejected: string[] = [];
  const defectsSeen = new Set<KnownDefect>();
  let resources = 0;
  for (const file of readdirSync(examplesDir).sort()) {
    if (!file.endsWith('.json') || file === 'package.json') continue;
    const resource = JSON.parse(readFileSync(join(examplesDir, file), 'utf8')) as { resourceType?: unknown };
    if (typeof resource?.resourceType !== 'string') continue; // .index.json and other package metadata
    resources++;
    const issues = validateResource(resource);
    const defect = KNOWN_DEFECTS.find((d) => d.files.test(file));
    if (defect) {
      defectsSeen.add(defect);
      const unexpected = issues.filter((i) => !(i.expression ?? []).every((e) => defect.expressions.test(e)));
      if (issues.length === 0 || unexpected.length > 0) {
        rejected.push(`${file}: expected only issues at ${defect.expressions} (${defect.reason}), got ${issues.map((i) => i.diagnostics).join(' | ') || 'none'}`);
      }
    } else if (issues.length > 0) {
      rejected.push(`${file}: ${issues.slice(0, 5).map((i) => i.diagnostics).join(' | ')}`);
    }
  }
  t.ok(resources > 5000, `the package holds the R4 examples (${resources} resources)`);
  t.same(rejected, [], `${resources} examples, ${rejected.length} rejected`);
  t.same(KNOWN_DEFECTS.filter((d) => !defectsSeen.has(d)).map((d) => String(d.files)), [], 'every listed defect still occurs');
  t.end();
});

t.test('an example with a no-break space in a string (DiagnosticReport-gingival-mass) validates: Java whitespace', (t) => {
  const report = JSON.parse(readFileSync(join(examplesDir, 'DiagnosticReport-gingival-mass.json'), 'utf8'));
  t.match(JSON.stringify(report), /\u00a0/, 'the example does hold a U+00A0');
  t.same(validateResource(report), []);
  t.end();
});
