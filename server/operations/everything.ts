// $everything: GET/POST [base]/Patient/[id]/$everything and [base]/Patient/$everything (FHIR R4 Patient-everything).
import type { Operation } from './registry.ts';
import { notFound } from '../../resources/outcome.ts';
import { prefersStrictHandling } from '../fhir-request.ts';
import { deadlineOf } from '../request-deadline.ts';

export const everythingOperation: Operation = {
  name: 'everything',
  levels: ['type', 'instance'],
  types: ['Patient'],
  readOnly: true,
  documentation: "A patient's record: the patient, their compartment and the resources it references (_since, _type, _count); " +
    'at type level only while the sandbox holds few patients (maxEverythingPatients), else 422 too-costly',
  handler(req, target) {
    if (target.id && !req.repo.exists('Patient', target.id)) throw notFound(`Patient/${target.id} is not known`);
    const path = target.id ? `Patient/${target.id}/$everything` : 'Patient/$everything';
    const query = [...req.query, ...(req.method === 'POST' && Array.isArray(req.body) ? (req.body as [string, string][]) : [])];
    const bundle = req.context.search.everything(
      { repo: req.repo, baseUrl: req.baseUrl, strict: prefersStrictHandling(req), path, limits: req.context.settings, deadline: deadlineOf(req) },
      target.id,
      query,
    );
    return { status: 200, body: bundle };
  },
};
