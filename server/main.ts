// Starts the server and listens, and stops it cleanly on SIGTERM/SIGINT; everything else is built in app.ts.
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from './app.ts';
import { warmUpValidation } from '../resources/validation/validate.ts';

export interface ServeOptions extends AppOptions {
  port: number;
  host: string;
}

export async function serve(options: ServeOptions) {
  const built = buildApp(options);
  // The R4 validators load on first use (a second or more); loaded here, before listening, the first write after a
  // start or a restart does not hold every other request for that long.
  warmUpValidation();
  const address = await built.app.listen({ port: options.port, host: options.host });
  return { ...built, address };
}

/**
 * The first SIGTERM or SIGINT stops accepting connections, lets in-flight requests finish, closes the sessions and the
 * database (Fastify's close runs the app's onClose hook) and exits 0; a second signal exits at once with 1.
 */
export function stopOnSignals(app: FastifyInstance, exit: (code: number) => void = (code) => process.exit(code)): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      exit(1);
      return;
    }
    stopping = true;
    app.log.info({ signal }, 'stopping: finishing in-flight requests');
    app.close().then(
      () => exit(0),
      (err: unknown) => {
        app.log.error({ err }, 'stop failed');
        exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
