import t from 'tap';
import { isTabularOperationPath } from '../../contracts/operations.ts';

t.test('tabular operations by path, raw or percent-encoded, at any level', async (t) => {
  for (const path of ['ViewDefinition/$run', 'ViewDefinition/abc/$run', '/fhir/_session/s1/ViewDefinition/$viewdefinition-run/', '$sqlquery-run', 'ViewDefinition/%24run', 'ViewDefinition/%24RUN']) {
    t.ok(isTabularOperationPath(path), path);
  }
  for (const path of ['Patient/$everything', 'ValueSet/$expand', 'Observation/run', 'Observation', '$runner', 'ViewDefinition/$run/x', '']) {
    t.notOk(isTabularOperationPath(path), path);
  }
});
