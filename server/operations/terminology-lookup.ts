// CodeSystem/$lookup (FHIR R4 4.7.16.1): display, designations and properties (LOINC axes, RxNorm ingredients,
// parent/child) of system|code.
import type { CodeSystem, ParametersParameter } from '@medplum/fhirtypes';
import type { Operation } from './registry.ts';
import { inputCode, OperationInput, parameters } from './terminology-params.ts';
import { badRequest, notFound } from '../../resources/outcome.ts';
import { propertyValueElement } from '../../resources/terminology/resources.ts';
import type { TerminologyService } from '../../resources/terminology/service.ts';
import { terminologyOf } from './terminology-stored.ts';

export const lookupOperation: Operation = {
  name: 'lookup',
  levels: ['type', 'instance'],
  types: ['CodeSystem'],
  readOnly: true,
  documentation: 'Display, designations and properties of a code (system + code, or coding)',
  handler(req, target) {
    const terminology = terminologyOf(req);
    const input = new OperationInput(req);
    let { system, code } = inputCode(terminology, input);
    if (target.id) {
      system ??= (req.repo.readLive('CodeSystem', target.id) as CodeSystem | undefined)?.url ?? instanceUrl(terminology, target.id);
      if (!system) throw notFound(`CodeSystem/${target.id} is not known`);
    }
    if (!code) throw badRequest('$lookup needs a code (parameters system + code, or coding)');
    const result = terminology.lookup(system, code, input.strings('property'));
    const out: ParametersParameter[] = [{ name: 'name', valueString: result.name }];
    if (result.version) out.push({ name: 'version', valueString: result.version });
    if (result.display) out.push({ name: 'display', valueString: result.display });
    if (result.definition) out.push({ name: 'definition', valueString: result.definition });
    for (const d of result.designations) {
      out.push({ name: 'designation', part: [
        ...(d.language ? [{ name: 'language', valueCode: d.language }] : []),
        ...(d.use ? [{ name: 'use', valueCoding: d.use }] : []),
        { name: 'value', valueString: d.value },
      ] });
    }
    for (const p of result.properties) {
      out.push({ name: 'property', part: [
        { name: 'code', valueCode: p.code },
        { name: 'value', ...propertyValueElement(p.value) } as ParametersParameter,
        ...(p.description ? [{ name: 'description', valueString: p.description }] : []),
      ] });
    }
    return { status: 200, body: parameters(...out) };
  },
};

function instanceUrl(terminology: TerminologyService, id: string): string | undefined {
  return [...terminology.index.codeSystems.values()].find((c) => (c.resource?.id ?? '') === id)?.url;
}
