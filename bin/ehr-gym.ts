// The ehr-gym command line.
import { Command, InvalidArgumentError } from 'commander';
import { serve } from '../server/main.ts';

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('a port is a whole number from 0 to 65535');
  return n;
}

const program = new Command('ehr-gym').description('A FHIR R4 mock EHR and benchmark gym for physician agents');

program
  .command('serve')
  .description('serve the FHIR API (base http://HOST:PORT/fhir)')
  .option('--port <port>', 'port to listen on (env PORT)', port, Number(process.env.PORT ?? 8080))
  .option('--host <host>', 'interface to listen on', process.env.HOST ?? '127.0.0.1')
  .option('--db <path>', 'SQLite database file', process.env.EHR_GYM_DB ?? 'data/ehr-gym.sqlite')
  .action(async (opts: { port: number; host: string; db: string }) => {
    const { mkdirSync } = await import('node:fs');
    const { dirname } = await import('node:path');
    if (opts.db !== ':memory:') mkdirSync(dirname(opts.db), { recursive: true });
    const { address } = await serve({ port: opts.port, host: opts.host, dbPath: opts.db });
    console.log(`ehr-gym FHIR R4 server at ${address}/fhir`);
  });

await program.parseAsync(process.argv);
