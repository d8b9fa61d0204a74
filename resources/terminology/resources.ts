// The terminology as FHIR resources, for the generator to write into the base layer so that CodeSystem, ValueSet and
// ConceptMap are readable and searchable like any resource. HL7's resources go out as published; systems built from
// code tables become CodeSystems with their concepts (`content: 'fragment'` for the large external systems).
import type { CodeSystem, CodeSystemConcept, CodeSystemConceptProperty, Resource } from '@medplum/fhirtypes';
import type { CodeSystemEntry, Concept, PropertyValue } from './model.ts';
import type { TerminologyIndex } from './terminology-index.ts';

export function* terminologyResourcesOf(index: TerminologyIndex): Iterable<Resource> {
  const ids = new Set<string>();
  const withUniqueId = <T extends Resource>(resource: T, wanted: string): T => {
    let id = sanitizeId(wanted);
    for (let n = 2; ids.has(`${resource.resourceType}/${id}`); n++) id = sanitizeId(`${wanted}-${n}`);
    ids.add(`${resource.resourceType}/${id}`);
    return id === resource.id ? resource : { ...resource, id };
  };
  for (const cs of index.codeSystems.values()) {
    const resource = cs.resource ? tidyStrings(cs.resource) : codeSystemResource(cs);
    yield withUniqueId(resource, resource.id ?? resource.name ?? 'codesystem');
  }
  for (const vs of index.valueSets.values()) yield withUniqueId(vs.resource, vs.resource.id ?? vs.resource.name ?? 'valueset');
  for (const cm of index.conceptMaps.values()) yield withUniqueId(cm.resource, cm.resource.id ?? cm.resource.name ?? 'conceptmap');
}

/**
 * A handful of published HL7 CodeSystems carry strings with trailing, doubled or no-break spaces, which the R4 string and
 * markdown rules reject; the copy written to the base layer has them trimmed so it passes validation.
 */
function tidyStrings<T>(value: T): T {
  if (typeof value === 'string') {
    return (/^\s|\s$| {2}|\u00a0/.test(value) ? value.replace(/\u00a0/g, ' ').trim().replace(/ {2,}/g, ' ') : value) as T;
  }
  if (Array.isArray(value)) return value.map(tidyStrings) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'div' ? v : tidyStrings(v)])) as T;
  }
  return value;
}

/** FHIR ids: [A-Za-z0-9\-\.]{1,64}. */
function sanitizeId(id: string): string {
  return id.replace(/[^A-Za-z0-9.-]/g, '-').slice(0, 64);
}

const ID_BY_URL: Record<string, string> = {
  'http://loinc.org': 'loinc',
  'http://snomed.info/sct': 'sct',
  'http://hl7.org/fhir/sid/icd-10-cm': 'icd-10-cm',
  'http://www.nlm.nih.gov/research/umls/rxnorm': 'rxnorm',
  'http://hl7.org/fhir/sid/cvx': 'cvx',
  'http://unitsofmeasure.org': 'ucum',
};

export function codeSystemResource(cs: CodeSystemEntry): CodeSystem {
  return {
    resourceType: 'CodeSystem',
    id: ID_BY_URL[cs.url] ?? (cs.name ?? cs.url.split('/').pop()!).toLowerCase(),
    url: cs.url,
    ...(cs.version ? { version: cs.version } : {}),
    ...(cs.name ? { name: cs.name } : {}),
    ...(cs.title ? { title: cs.title } : {}),
    status: 'active',
    ...(cs.publisher ? { publisher: cs.publisher } : {}),
    ...(cs.description ? { description: cs.description } : {}),
    caseSensitive: cs.caseSensitive,
    hierarchyMeaning: 'is-a',
    content: cs.content,
    count: cs.concepts.size,
    property: [
      { code: 'parent', uri: 'http://hl7.org/fhir/concept-properties#parent', type: 'code', description: 'The concept this one is a kind of' },
      ...cs.properties.map((p) => ({ code: p.code, type: p.type, ...(p.description ? { description: p.description } : {}) })),
    ],
    concept: [...cs.concepts.values()].map(conceptResource),
  } as CodeSystem;
}

function conceptResource(concept: Concept): CodeSystemConcept {
  const property: CodeSystemConceptProperty[] = [
    ...concept.parents.map((parent) => ({ code: 'parent', valueCode: parent })),
    ...concept.properties.map((p) => ({ code: p.code, ...propertyValueElement(p.value) })),
  ];
  return {
    code: concept.code,
    ...(concept.display ? { display: concept.display } : {}),
    ...(concept.definition ? { definition: concept.definition } : {}),
    ...(concept.designations.length
      ? { designation: concept.designations.map((d) => ({ ...(d.language ? { language: d.language } : {}), ...(d.use ? { use: d.use } : {}), value: d.value })) }
      : {}),
    ...(property.length ? { property } : {}),
  };
}

export function propertyValueElement(value: PropertyValue): Partial<CodeSystemConceptProperty> {
  switch (value.type) {
    case 'code': return { valueCode: value.value };
    case 'string': return { valueString: value.value };
    case 'boolean': return { valueBoolean: value.value };
    case 'integer': return { valueInteger: value.value };
    case 'decimal': return { valueDecimal: value.value };
    case 'Coding': return { valueCoding: value.value };
  }
}
