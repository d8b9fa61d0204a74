// Reads the seed's code tables (seed/codes/, written by the population generator) into code tables and maps.
// The tables are the generator's data: read here, never edited.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CodeMapTable, CodeTable } from './model.ts';

export function readSeedCodeTables(dir: string): { tables: CodeTable[]; maps: CodeMapTable[] } {
  const out = { tables: [] as CodeTable[], maps: [] as CodeMapTable[] };
  if (!existsSync(dir)) return out;
  for (const file of readdirSync(dir).sort()) {
    if (!file.endsWith('.json')) continue;
    const data = JSON.parse(readFileSync(join(dir, file), 'utf8')) as unknown;
    if (isCodeTable(data)) out.tables.push(data);
  }
  return out;
}

function isCodeTable(data: unknown): data is CodeTable {
  return typeof data === 'object' && data !== null && typeof (data as CodeTable).system === 'string' && Array.isArray((data as CodeTable).concepts);
}
