// Runs a compiled view over a stream of resources: an iterator in, an iterator of rows out, so memory holds one
// resource's rows at a time however many resources pass through.
import type { Resource } from '@medplum/fhirtypes';
import type { CompiledView, Row } from './compile-view.ts';

export function* runView(view: CompiledView, resources: Iterable<Resource>, limit = Infinity): Generator<Row> {
  let emitted = 0;
  if (limit <= 0) return;
  for (const resource of resources) {
    for (const row of view.rowsOf(resource)) {
      yield row;
      if (++emitted >= limit) return;
    }
  }
}
