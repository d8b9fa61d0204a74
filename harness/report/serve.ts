// `ehr-gym view`: the report page over HTTP on loopback. Every load of / rebuilds it from the results directories, so
// reloading shows episodes a run still in progress has written since. The page holds the tables; a trajectory is
// fetched when it is opened (GET /episode?run=N&id=ID), so a large run's page stays small. Nothing else is served.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { episodeView, loadEpisode, reportData } from './data.ts';
import { renderReport } from './html.ts';

export interface ReportServer {
  url: string;
  close(): Promise<void>;
}

export async function serveReport(dirs: string[], options: { port?: number; host?: string } = {}): Promise<ReportServer> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end('only GET\n');
      return;
    }
    if (path === '/episode') {
      const query = new URL(req.url ?? '/', 'http://localhost').searchParams;
      const run = query.get('run') ?? '';
      const dir = /^\d+$/.test(run) ? dirs[Number(run)] : undefined;
      const episode = dir !== undefined ? loadEpisode(dir, query.get('id') ?? '') : undefined;
      if (!episode) {
        res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('no such episode\n');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }).end(JSON.stringify(episodeView(episode)));
      return;
    }
    if (path !== '/' && path !== '/index.html') {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('the report is at /\n');
      return;
    }
    let html: string;
    try {
      html = renderReport(reportData(dirs, { lazy: true }));
    } catch (err) {
      // A results file being written right now, or removed: say so instead of a broken page.
      res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end(`could not read the results: ${(err as Error).message}\n`);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(req.method === 'HEAD' ? undefined : html);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}/`,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
