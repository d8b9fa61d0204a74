// FHIR Bulk Data NDJSON output: one file per resource type (`Patient.ndjson`, ...), one resource per line.
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Resource } from '@medplum/fhirtypes';

export class NdjsonWriter {
  private readonly files = new Map<string, { fd: number; buffer: string[]; size: number }>();

  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  write(resource: Resource): void {
    let file = this.files.get(resource.resourceType);
    if (!file) {
      file = { fd: openSync(join(this.dir, `${resource.resourceType}.ndjson`), 'w'), buffer: [], size: 0 };
      this.files.set(resource.resourceType, file);
    }
    const line = JSON.stringify(resource) + '\n';
    file.buffer.push(line);
    file.size += line.length;
    if (file.size > 1 << 20) this.flush(file);
  }

  close(): string[] {
    for (const file of this.files.values()) {
      this.flush(file);
      closeSync(file.fd);
    }
    return [...this.files.keys()].sort().map((t) => join(this.dir, `${t}.ndjson`));
  }

  private flush(file: { fd: number; buffer: string[]; size: number }): void {
    if (file.buffer.length) writeSync(file.fd, file.buffer.join(''));
    file.buffer = [];
    file.size = 0;
  }
}
