// The report as one self-contained HTML file: the data (data.ts) as JSON inside the page, the script and styles
// (assets/, written for this report, no library) inlined. A Content-Security-Policy forbids every fetch, so the page
// works offline and cannot leak a run's records anywhere; a page served by `ehr-gym view` may fetch from its own
// server only (the trajectories, one at a time).
import { readFileSync } from 'node:fs';
import type { ReportData } from './data.ts';

const asset = (name: string) => readFileSync(new URL(`./assets/${name}`, import.meta.url), 'utf8');

/** JSON safe inside a <script> element: no `</script>`, no `<!--`, and the two JavaScript-only line separators escaped. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function renderReport(data: ReportData): string {
  const title = `ehr-gym results: ${data.runs.map((r) => r.label).join(' vs ')}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:${data.lazy ? "; connect-src 'self'" : ''}">
<title>${escapeHtml(title)}</title>
<style>
${asset('report.css')}</style>
</head>
<body>
<div id="app"><noscript>This report needs JavaScript (inline, no network).</noscript></div>
<script type="application/json" id="report-data">${scriptJson(data)}</script>
<script>
${asset('report.js')}</script>
</body>
</html>
`;
}
