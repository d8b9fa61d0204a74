// Starts the server and listens; everything else is built in app.ts.
import { buildApp, type AppOptions } from './app.ts';

export interface ServeOptions extends AppOptions {
  port: number;
  host: string;
}

export async function serve(options: ServeOptions) {
  const built = buildApp(options);
  const address = await built.app.listen({ port: options.port, host: options.host });
  return { ...built, address };
}
