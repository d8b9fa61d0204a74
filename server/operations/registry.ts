// The table of named operations ($validate, $everything, ...): the router dispatches to them and the
// CapabilityStatement lists them from the same table. What an operation is: server/fhir-request.ts.
import type { Operation, OperationLevel, OperationTable, OperationTarget } from '../fhir-request.ts';

export type { Operation, OperationLevel, OperationTarget };

export class OperationRegistry implements OperationTable {
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
