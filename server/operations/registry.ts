// Named operations ($validate, $everything, ...) as data: the router dispatches to them and the
// CapabilityStatement lists them from the same table.
import type { FhirRequest, FhirResponse } from '../fhir-request.ts';

export type OperationLevel = 'system' | 'type' | 'instance';

export interface OperationTarget {
  type?: string;
  id?: string;
}

export interface Operation {
  /** Without the `$`. */
  name: string;
  levels: OperationLevel[];
  /** Resource types the operation applies to at type and instance level; undefined = any. */
  types?: string[];
  /** False when the operation changes state (then only POST may invoke it). */
  readOnly: boolean;
  /** A read-only operation that still takes only POST (its input, e.g. a SQL query, belongs in a body). */
  postOnly?: boolean;
  /**
   * False when the operation cannot be a batch/transaction entry because its answer is not a resource available
   * now (rows, a stream, or a reply from another process); such entries fail before the handler does any work.
   */
  bundleEntry?: boolean;
  documentation?: string;
  handler(req: FhirRequest, target: OperationTarget): FhirResponse;
}

export class OperationRegistry {
  private readonly operations = new Map<string, Operation[]>();

  register(operation: Operation): this {
    const list = this.operations.get(operation.name) ?? [];
    list.push(operation);
    this.operations.set(operation.name, list);
    return this;
  }

  find(name: string, level: OperationLevel, type?: string): Operation | undefined {
    return this.operations.get(name)?.find(
      (op) => op.levels.includes(level) && (level === 'system' || !op.types || op.types.includes(type ?? '')),
    );
  }

  all(): Operation[] {
    return [...this.operations.values()].flat();
  }
}
