// ValueSet/$validate-code (FHIR R4 4.9.18.2) and CodeSystem/$validate-code (4.7.16.3): is the code in the value
// set / code system, and is the display (when given) one of its names.
import type { CodeSystem } from '@medplum/fhirtypes';
import type { Operation } from './registry.ts';
import { inputCode, OperationInput, parameters, targetValueSet } from './terminology-params.ts';
import { badRequest } from '../../resources/outcome.ts';
import type { ValidateResult } from '../../resources/terminology/service.ts';
import { terminologyOf } from './terminology-stored.ts';

export const validateCodeOperation: Operation = {
  name: 'validate-code',
  levels: ['type', 'instance'],
  types: ['ValueSet', 'CodeSystem'],
  readOnly: true,
  documentation: 'Is a code (code + system, coding or codeableConcept) in a ValueSet or CodeSystem',
  handler(req, target) {
    const terminology = terminologyOf(req);
    const input = new OperationInput(req);
    let result: ValidateResult;
    if (target.type === 'CodeSystem') {
      const { system, code, display } = inputCode(terminology, input, 'url');
      const url = system ?? input.string('system') ?? (target.id ? (req.repo.readLive('CodeSystem', target.id) as CodeSystem | undefined)?.url : undefined);
      if (!code) throw badRequest('$validate-code needs a code (code + url, coding, or codeableConcept)');
      if (!url) throw badRequest('$validate-code on CodeSystem needs the code system (parameter url)');
      result = terminology.validateInCodeSystem(url, code, display);
    } else {
      const valueSet = targetValueSet(req, input, target.id, ['url', 'valueSet']);
      const { system, code, display } = inputCode(terminology, input);
      if (!code) throw badRequest('$validate-code needs a code (code + system, coding, or codeableConcept)');
      result = terminology.validateInValueSet(valueSet, system, code, display);
    }
    return {
      status: 200,
      body: parameters(
        { name: 'result', valueBoolean: result.result },
        result.message ? { name: 'message', valueString: result.message } : undefined,
        result.display ? { name: 'display', valueString: result.display } : undefined,
      ),
    };
  },
};
