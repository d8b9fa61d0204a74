// The FHIR id grammar (R4 2.24.0.1 "id": [A-Za-z0-9\-\.]{1,64}), without the two ids that are path segments of their
// own: `Patient/..` is not a resource in any URL a client or proxy builds, so `.` and `..` are refused everywhere.
const ID_GRAMMAR = /^[A-Za-z0-9\-.]{1,64}$/;

export function isValidId(id: unknown): id is string {
  return typeof id === 'string' && ID_GRAMMAR.test(id) && id !== '.' && id !== '..';
}

export const ID_RULE = '[A-Za-z0-9-.]{1,64}, not . or ..';
