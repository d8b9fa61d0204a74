// ConceptMap/$translate (FHIR R4 4.10.16.1): local flowsheet codes <-> LOINC, ICD-10-CM <-> SNOMED CT, and HL7's maps.
import type { ConceptMap } from '@medplum/fhirtypes';
import type { Operation } from './registry.ts';
import { inputCode, OperationInput, parameters } from './terminology-params.ts';
import { notFound } from '../../resources/outcome.ts';
import { terminologyOf } from './terminology-stored.ts';

export const translateOperation: Operation = {
  name: 'translate',
  levels: ['type', 'instance'],
  types: ['ConceptMap'],
  readOnly: true,
  documentation: 'Translate a code through the concept maps (url, source/target value sets, targetsystem, reverse)',
  handler(req, target) {
    const terminology = terminologyOf(req);
    const input = new OperationInput(req);
    let conceptMap = input.resource<ConceptMap>('conceptMap', 'ConceptMap');
    if (target.id) {
      conceptMap = (req.repo.readLive('ConceptMap', target.id) as ConceptMap | undefined)
        ?? [...terminology.index.conceptMaps.values()].find((m) => m.resource.id === target.id)?.resource;
      if (!conceptMap) throw notFound(`ConceptMap/${target.id} is not known`);
    }
    const { system, code } = inputCode(terminology, input);
    const result = terminology.translate({
      system,
      code,
      conceptMap,
      url: input.string('url'),
      source: input.string('source'),
      target: input.string('target'),
      targetSystem: input.string('targetsystem'),
      reverse: input.boolean('reverse'),
    });
    return {
      status: 200,
      body: parameters(
        { name: 'result', valueBoolean: result.result },
        result.message ? { name: 'message', valueString: result.message } : undefined,
        ...result.matches.map((m) => ({
          name: 'match',
          part: [
            { name: 'equivalence', valueCode: m.equivalence },
            { name: 'concept', valueCoding: m.concept },
            { name: 'source', valueUri: m.source },
            ...(m.comment ? [{ name: 'comment', valueString: m.comment }] : []),
          ],
        })),
      ),
    };
  },
};
