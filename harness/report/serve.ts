// `ehr-gym view`: the report page over HTTP on loopback. Every load of / rebuilds it from the results directories, so
// reloading shows episodes a run still in progress has written since. Only GET / (and HEAD) exists; the page needs
// nothing else.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { reportData } from './data.ts';
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
    if (path !== '/' && path !== '/index.html') {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('the report is at /\n');
      return;
    }
    let html: string;
    try {
      html = renderReport(reportData(dirs));
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
