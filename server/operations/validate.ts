// $validate: POST [base]/[type]/$validate and [base]/[type]/[id]/$validate (FHIR R4 "Operation $validate").
// Reports the structural result without writing; a missing reference target is a warning here, an error on write.
import type { Parameters, Resource } from '@medplum/fhirtypes';
import type { Operation } from './registry.ts';
import { badRequest, informational, notFound, outcome } from '../../resources/outcome.ts';
import { validateResource } from '../../resources/validation/validate.ts';
import { checkReferences } from '../interactions/write-checks.ts';

export const validateOperation: Operation = {
  name: 'validate',
  levels: ['type', 'instance'],
  readOnly: true,
  documentation: 'Validate a resource against the FHIR R4 schema without storing it',
  handler(req, target) {
    let resource = req.body as Resource | Parameters | undefined;
    if (resource?.resourceType === 'Parameters') {
      resource = (resource as Parameters).parameter?.find((p) => p.name === 'resource')?.resource;
    }
    if (!resource || typeof resource !== 'object') {
      if (!target.id) throw badRequest('$validate needs a resource in the body (or a Parameters with a `resource` part)');
      const stored = req.repo.readLive(target.type!, target.id);
      if (!stored) throw notFound(`${target.type}/${target.id} is not known`);
      resource = stored;
    }
    if (resource.resourceType !== target.type) {
      throw badRequest(`resourceType '${String(resource.resourceType)}' does not match '${target.type}'`, ['resourceType']);
    }
    const issues = validateResource(resource);
    if (issues.length === 0) issues.push(...checkReferences(req, resource as Resource, true));
    const body = issues.length > 0 ? outcome(...issues) : informational('The resource is valid');
    return { status: 200, body };
  },
};
