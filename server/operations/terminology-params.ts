// Input parameters of the terminology operations, read the same way from a GET query string and from a POST
// Parameters body (FHIR R4 2.36.0.1 "Operation request"), and the Parameters answer they build.
import type { CodeableConcept, Coding, Parameters, ParametersParameter, Resource, ValueSet } from '@medplum/fhirtypes';
import type { FhirRequest } from '../fhir-request.ts';
import type { TerminologyService } from '../../resources/terminology/service.ts';
import { badRequest, FhirError, notFound } from '../../resources/outcome.ts';
import { validateResource } from '../../resources/validation/validate.ts';
import { terminologyOf } from './terminology-stored.ts';

export class OperationInput {
  private readonly parts: ParametersParameter[];

  constructor(private readonly req: FhirRequest) {
    const body = req.body as Parameters | undefined;
    if (req.method === 'POST' && body && typeof body === 'object' && body.resourceType !== undefined && body.resourceType !== 'Parameters') {
      throw badRequest(`The body of a terminology operation is a Parameters resource, not ${String(body.resourceType)}`);
    }
    this.parts = body?.resourceType === 'Parameters' ? body.parameter ?? [] : [];
  }

  /** A primitive parameter as text (query value, or value[x] of the Parameters part). */
  string(name: string): string | undefined {
    const q = this.req.query.find(([n]) => n === name)?.[1];
    if (q !== undefined) return q;
    const part = this.parts.find((p) => p.name === name);
    if (!part) return undefined;
    for (const key of ['valueString', 'valueCode', 'valueUri', 'valueUrl', 'valueCanonical', 'valueId', 'valueDateTime'] as const) {
      if (typeof part[key] === 'string') return part[key] as string;
    }
    for (const key of ['valueBoolean', 'valueInteger', 'valueDecimal', 'valuePositiveInt', 'valueUnsignedInt'] as const) {
      if (part[key] !== undefined) return String(part[key]);
    }
    return undefined;
  }

  strings(name: string): string[] {
    const fromQuery = this.req.query.filter(([n]) => n === name).flatMap(([, v]) => v.split(','));
    const fromBody = this.parts.filter((p) => p.name === name).map((p) => p.valueCode ?? p.valueString).filter((v): v is string => !!v);
    return [...fromQuery, ...fromBody];
  }

  boolean(name: string): boolean | undefined {
    const v = this.string(name);
    if (v === undefined) return undefined;
    if (v !== 'true' && v !== 'false') throw badRequest(`Parameter '${name}' must be true or false, got '${v}'`);
    return v === 'true';
  }

  coding(name: string): Coding | undefined {
    const part = this.parts.find((p) => p.name === name);
    if (part?.valueCoding) return part.valueCoding;
    // GET form of a Coding: system|code (the token syntax).
    const q = this.req.query.find(([n]) => n === name)?.[1];
    if (q === undefined) return undefined;
    const bar = q.lastIndexOf('|');
    return bar >= 0 ? { system: q.slice(0, bar) || undefined, code: q.slice(bar + 1) } : { code: q };
  }

  codeableConcept(name: string): CodeableConcept | undefined {
    return this.parts.find((p) => p.name === name)?.valueCodeableConcept;
  }

  resource<T extends Resource>(name: string, type: T['resourceType']): T | undefined {
    const r = this.parts.find((p) => p.name === name)?.resource;
    if (r === undefined) return undefined;
    if (r.resourceType !== type) throw badRequest(`Parameter '${name}' must be a ${type}, got ${r.resourceType}`);
    // An inline resource is read by the terminology engine as it stands: it must be structurally valid first.
    const issues = validateResource(r);
    if (issues.length > 0) throw new FhirError(400, issues);
    return r as T;
  }
}

/** The ValueSet an operation is about: instance id, `url` (`valueSet` in R4 $validate-code), or an inline resource. */
export function targetValueSet(req: FhirRequest, input: OperationInput, id: string | undefined, urlParams = ['url']): ValueSet {
  if (id) {
    const stored = req.repo.readLive('ValueSet', id) as ValueSet | undefined;
    if (stored) return stored;
    const known = [...terminologyOf(req).index.valueSets.values()].find((v) => v.resource.id === id)?.resource;
    if (known) return known;
    throw notFound(`ValueSet/${id} is not known`);
  }
  const inline = input.resource<ValueSet>('valueSet', 'ValueSet');
  if (inline) return inline;
  for (const name of urlParams) {
    const url = input.string(name);
    if (url) return terminologyOf(req).requireValueSet(url);
  }
  throw badRequest(`Name the ValueSet: ValueSet/[id]/$op, a '${urlParams[0]}' parameter, or a 'valueSet' resource`);
}

/**
 * The code to work on: `code` + `system`, or `coding`, or the first coding of `codeableConcept` with a system
 * `terminology` knows.
 */
export function inputCode(terminology: TerminologyService, input: OperationInput, systemParam = 'system'): { system?: string; code?: string; display?: string } {
  const code = input.string('code');
  if (code !== undefined) return { system: input.string(systemParam), code, display: input.string('display') };
  const coding = input.coding('coding');
  if (coding) return { system: coding.system, code: coding.code, display: coding.display ?? input.string('display') };
  const cc = input.codeableConcept('codeableConcept');
  if (cc?.coding?.length) {
    const known = cc.coding.find((c) => terminology.index.codeSystem(c.system)) ?? cc.coding[0];
    return { system: known.system, code: known.code, display: known.display };
  }
  return {};
}

export function parameters(...parts: (ParametersParameter | undefined)[]): Parameters {
  return { resourceType: 'Parameters', parameter: parts.filter((p): p is ParametersParameter => p !== undefined) };
}
