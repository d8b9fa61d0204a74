// The report page's script: renders the data embedded in the page (harness/report/data.ts) into the overview, the
// per-task table, the episode list, one episode's trajectory and the comparison of two runs. Plain DOM, no library, no
// network: the page is one self-contained file. Routes live in the hash: #/r0/overview, #/r0/tasks, #/r0/episodes,
// #/r0/episode/<id>, #/compare. Text goes in through textContent only, never as HTML.
(function () {
  'use strict';
  const data = JSON.parse(document.getElementById('report-data').textContent);
  const app = document.getElementById('app');
  const FOLD = 600; // characters of a tool result shown before it is folded

  function h(tag, attrs, ...children) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
      else if (k === 'class') el.className = v;
      else el.setAttribute(k, v === true ? '' : String(v));
    }
    for (const c of children.flat()) if (c !== undefined && c !== null && c !== false) el.append(c instanceof Node ? c : String(c));
    return el;
  }
  const svg = (tag, attrs, ...children) => {
    const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
    for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, String(v));
    for (const c of children.flat()) if (c) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
    return el;
  };
  const pct = (x) => (x === undefined || x === null ? '–' : `${(x * 100).toFixed(1)}%`);
  const num = (x) => (x === undefined || x === null ? '–' : x.toLocaleString('en-US'));
  const usd = (x) => (x === undefined || x === null ? '–' : `$${x.toFixed(4)}`);
  const secs = (ms) => (ms === undefined || ms === null ? '–' : `${(ms / 1000).toFixed(1)} s`);

  // Filters of the episode list and the task table survive moving between views.
  const state = { run: 0, episodes: { failedOnly: false, specialty: '', task: '', checkpoint: '', cause: '' }, tasks: { filter: '', sort: 'task', desc: false } };

  function route() {
    const parts = location.hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
    if (parts[0] === 'compare' && data.comparison) return { view: 'compare' };
    const m = /^r(\d+)$/.exec(parts[0] || '');
    const run = m && data.runs[Number(m[1])] ? Number(m[1]) : 0;
    const view = ['overview', 'tasks', 'episodes', 'episode'].includes(parts[1]) ? parts[1] : 'overview';
    return { run, view, id: parts.slice(2).join('/') };
  }
  const link = (run, view, id) => `#/r${run}/${view}${id ? `/${encodeURIComponent(id)}` : ''}`;

  function nav(r) {
    const tabs = [['overview', 'Overview'], ['tasks', 'Tasks'], ['episodes', 'Episodes']];
    return h('header', {},
      h('h1', {}, 'ehr-gym results'),
      data.runs.length > 1 ? h('select', { 'data-testid': 'run-select', 'aria-label': 'run', onchange: (ev) => { location.hash = link(Number(ev.target.value), r.view === 'episode' ? 'episodes' : r.view === 'compare' ? 'overview' : r.view); } },
        data.runs.map((run, i) => h('option', { value: i, selected: i === r.run && r.view !== 'compare' }, run.label))) : h('span', { class: 'run-label' }, data.runs[0].label),
      h('nav', {}, tabs.map(([v, label]) => h('a', { href: link(r.run ?? 0, v), class: r.view === v || (v === 'episodes' && r.view === 'episode') ? 'active' : '' }, label)),
        data.comparison ? h('a', { href: '#/compare', class: r.view === 'compare' ? 'active' : '', 'data-testid': 'nav-compare' }, 'Compare') : null));
  }

  function card(label, value, testid, note, cls) {
    return h('div', { class: `card ${cls || ''}`, 'data-testid': testid }, h('div', { class: 'card-label' }, label), h('div', { class: 'card-value' }, value), note ? h('div', { class: 'card-note' }, note) : null);
  }

  function bars(title, rows, testid) {
    // rows: [label, rate, note]
    return h('section', { class: 'chart', 'data-testid': testid }, h('h3', {}, title),
      rows.length === 0 ? h('p', { class: 'muted' }, 'nothing scored') : h('table', { class: 'bars' }, h('tbody', {}, rows.map(([label, rate, note]) =>
        h('tr', {}, h('th', {}, label), h('td', { class: 'bar-cell' }, h('div', { class: 'bar', style: `width:${Math.round(rate * 100)}%` })), h('td', { class: 'num' }, pct(rate)), h('td', { class: 'muted' }, note))))));
  }

  function passKChart(passK) {
    const ks = Object.keys(passK).map(Number).sort((a, b) => a - b);
    const w = 320, hgt = 160, pad = 30;
    const x = (k) => pad + (ks.length === 1 ? (w - 2 * pad) / 2 : ((k - ks[0]) / (ks.at(-1) - ks[0])) * (w - 2 * pad));
    const y = (v) => hgt - pad - v * (hgt - 2 * pad);
    const chart = svg('svg', { width: w, height: hgt, viewBox: `0 0 ${w} ${hgt}`, role: 'img', 'aria-label': 'pass^k over k' },
      svg('line', { x1: pad, y1: y(0), x2: w - pad, y2: y(0), class: 'axis' }), svg('line', { x1: pad, y1: y(0), x2: pad, y2: y(1), class: 'axis' }),
      svg('text', { x: 4, y: y(1) + 4, class: 'tick' }, '100%'), svg('text', { x: 10, y: y(0) + 4, class: 'tick' }, '0%'),
      ks.length > 1 ? svg('polyline', { points: ks.map((k) => `${x(k)},${y(passK[k])}`).join(' '), class: 'curve' }) : null,
      ks.map((k) => svg('circle', { cx: x(k), cy: y(passK[k]), r: 4, class: 'dot' }, svg('title', {}, `pass^${k} ${pct(passK[k])}`))),
      ks.map((k) => svg('text', { x: x(k) - 4, y: hgt - 8, class: 'tick' }, `k=${k}`)));
    return h('section', { class: 'chart', 'data-testid': 'passk' }, h('h3', {}, 'pass^k over k'), chart,
      h('table', { class: 'small' }, h('tbody', {}, ks.map((k) => h('tr', { 'data-testid': `passk-${k}` }, h('th', {}, `pass^${k}`), h('td', { class: 'num' }, pct(passK[k])))))));
  }

  function overview(run, r) {
    const s = run.summary;
    const meta = run.meta || {};
    const model = meta.settings && meta.settings.model ? `${meta.settings.model.provider} ${meta.settings.model.model}` : '';
    return h('main', { 'data-testid': 'overview' },
      h('p', { class: 'muted' }, `agent ${meta.agent || (run.episodes[0] && run.trajectories[run.episodes[0].id].agent) || '?'}${model ? ` (${model})` : ''}, ${meta.trials || '?'} trial(s), ${s.tasks} task(s), ${s.episodes + s.infraErrors} episode(s) · ${run.dir}`),
      h('div', { class: 'cards' },
        card('pass@1', pct(s.pass1), 'pass1', `${s.episodes} scored episode(s)`),
        card('checkpoint score', pct(s.checkpointScore), 'checkpoint-score', `checkpoints passed ${pct(s.checkpointPassRate)}`),
        card('infrastructure errors', num(s.infraErrors), 'infra-errors', 'not scored: out of every rate', s.infraErrors > 0 ? 'warn' : ''),
        card('agent errors', num(s.agentErrors), 'agent-errors', s.truncatedFinalReplies ? `${s.truncatedFinalReplies} truncated final reply(ies)` : 'crashes, budgets'),
        card('tokens', s.tokens ? num(s.tokens.prompt + s.tokens.completion) : '–', 'tokens', s.tokens ? `prompt ${num(s.tokens.prompt)} · completion ${num(s.tokens.completion)}` : 'not recorded'),
        card('cost', usd(s.cost), 'cost', s.cost === undefined ? 'no --price given' : 'USD, all episodes'),
        card('episode time', secs(s.episodeTimeMs), 'time', meta.wallTimeMs !== undefined ? `wall time ${secs(meta.wallTimeMs)}` : ''),
        card('tool calls / episode', s.toolCalls.mean.toFixed(1), 'tool-calls', `min ${s.toolCalls.min}, max ${s.toolCalls.max}; retries ${s.retries}`)),
      h('div', { class: 'charts' },
        passKChart(s.passHatK),
        bars('pass@1 by specialty', Object.entries(s.bySpecialty).map(([k, b]) => [k, b.passRate, `${b.episodes} ep · score ${pct(b.meanScore)}`]), 'by-specialty'),
        bars('pass@1 by workflow', Object.entries(s.byWorkflow).map(([k, b]) => [k, b.passRate, `${b.episodes} ep · score ${pct(b.meanScore)}`]), 'by-workflow'),
        bars('checkpoints passed by category', Object.entries(s.byCategory).map(([k, b]) => [k, b.passRate, `${b.passed}/${b.checkpoints}`]), 'by-category')),
      Object.keys(s.failures).length ? h('section', {}, h('h3', {}, `failed checkpoints by cause (${s.criticalFailures} critical)`),
        h('ul', { 'data-testid': 'failure-causes' }, Object.entries(s.failures).map(([k, n]) => h('li', {}, h('a', { href: link(r.run, 'episodes'), onclick: () => { Object.assign(state.episodes, { cause: k, failedOnly: false, specialty: '', task: '', checkpoint: '' }); } }, k), ` ${n}`)))) : null,
      s.infraErrorEpisodes.length ? h('section', { 'data-testid': 'infra-list' }, h('h3', {}, 'infrastructure errors (not scored)'),
        h('ul', {}, s.infraErrorEpisodes.map((f) => h('li', {}, h('a', { href: link(r.run, 'episode', `${f.task.replace(/\//g, '__')}__${f.variant}__t${f.trial}`) }, `${f.task} ${f.variant} t${f.trial}`), `: ${f.infraError}`)))) : null);
  }

  function tasksView(run, r) {
    const st = state.tasks;
    const cols = [['task', 'task'], ['specialty', 'specialty'], ['variants', 'variants'], ['trials', 'trials'], ['episodes', 'scored'], ['passRate', 'pass rate'], ['meanScore', 'mean score'], ['infraErrors', 'infra errors'], ['mostFailed', 'most failed checkpoint']];
    const value = (row, key) => (key === 'mostFailed' ? (row.mostFailed ? row.mostFailed.episodes : -1) : row[key]);
    const body = h('tbody');
    const fill = () => {
      const q = st.filter.toLowerCase();
      const rows = run.tasks.filter((t) => !q || `${t.task} ${t.specialty} ${t.mostFailed ? t.mostFailed.id : ''}`.toLowerCase().includes(q))
        .sort((a, b) => { const x = value(a, st.sort), y = value(b, st.sort); const c = typeof x === 'string' ? x.localeCompare(y) : x - y; return st.desc ? -c : c; });
      body.replaceChildren(...rows.map((t) => h('tr', { 'data-testid': 'task-row', 'data-task': t.task },
        h('td', {}, h('a', { href: link(r.run, 'episodes'), onclick: () => { Object.assign(state.episodes, { task: t.task, failedOnly: false, specialty: '', checkpoint: '', cause: '' }); } }, t.task)),
        h('td', {}, t.specialty), h('td', { class: 'num' }, t.variants), h('td', { class: 'num' }, t.trials), h('td', { class: 'num' }, t.episodes),
        h('td', { class: 'num' }, `${pct(t.episodes ? t.passRate : undefined)} (${t.passes}/${t.episodes})`), h('td', { class: 'num' }, pct(t.episodes ? t.meanScore : undefined)),
        h('td', { class: 'num' }, t.infraErrors), h('td', {}, t.mostFailed ? `${t.mostFailed.id} (${t.mostFailed.episodes})` : '–'))));
    };
    const head = h('tr', {}, cols.map(([key, label]) => h('th', { class: 'sortable', 'data-sort': key, 'aria-sort': st.sort === key ? (st.desc ? 'descending' : 'ascending') : 'none', onclick: () => { if (st.sort === key) st.desc = !st.desc; else { st.sort = key; st.desc = false; } render(); } }, label, st.sort === key ? (st.desc ? ' ▼' : ' ▲') : '')));
    fill();
    return h('main', { 'data-testid': 'tasks' },
      h('input', { type: 'search', placeholder: 'filter tasks', 'data-testid': 'task-filter', value: st.filter, oninput: (ev) => { st.filter = ev.target.value; fill(); } }),
      h('table', { class: 'grid' }, h('thead', {}, head), body));
  }

  function episodesView(run, r) {
    const f = state.episodes;
    const uniq = (xs) => [...new Set(xs)].sort();
    const select = (key, label, options) => h('label', {}, `${label} `, h('select', { 'data-testid': `filter-${key}`, onchange: (ev) => { f[key] = ev.target.value; fill(); } },
      h('option', { value: '' }, 'all'), options.map((o) => h('option', { value: o, selected: f[key] === o }, o))));
    const body = h('tbody');
    const count = h('span', { 'data-testid': 'episode-count' });
    const fill = () => {
      const rows = run.episodes.filter((e) => (!f.failedOnly || e.outcome === 'failed') && (!f.specialty || e.specialty === f.specialty) && (!f.task || e.task === f.task)
        && (!f.checkpoint || e.failedCheckpoints.includes(f.checkpoint)) && (!f.cause || e.causes.includes(f.cause)));
      count.textContent = `${rows.length} of ${run.episodes.length} episode(s)`;
      body.replaceChildren(...rows.map((e) => h('tr', { 'data-testid': 'episode-row', 'data-id': e.id, class: e.outcome },
        h('td', {}, h('a', { href: link(r.run, 'episode', e.id) }, e.task)), h('td', {}, e.variant), h('td', { class: 'num' }, e.trial),
        h('td', {}, h('span', { class: `badge ${e.outcome}` }, e.outcome)), h('td', { class: 'num' }, e.outcome === 'infra_error' ? '–' : pct(e.score)),
        h('td', {}, e.failedCheckpoints.join(', ') || '–'), h('td', {}, e.causes.join(', ') || '–'), h('td', { class: 'num' }, e.toolCalls),
        h('td', { class: 'num' }, num(e.tokens)), h('td', { class: 'num' }, secs(e.durationMs)))));
    };
    fill();
    return h('main', { 'data-testid': 'episodes' },
      h('div', { class: 'filters' },
        h('label', {}, h('input', { type: 'checkbox', 'data-testid': 'filter-failed', checked: f.failedOnly, onchange: (ev) => { f.failedOnly = ev.target.checked; fill(); } }), ' failed only'),
        select('specialty', 'specialty', uniq(run.episodes.map((e) => e.specialty))),
        select('task', 'task', uniq(run.episodes.map((e) => e.task))),
        select('checkpoint', 'failed checkpoint', uniq(run.episodes.flatMap((e) => e.failedCheckpoints))),
        select('cause', 'failure cause', uniq(run.episodes.flatMap((e) => e.causes))), count),
      h('table', { class: 'grid' }, h('thead', {}, h('tr', {}, ['task', 'variant', 'trial', 'outcome', 'score', 'failed checkpoints', 'causes', 'tool calls', 'tokens', 'time'].map((c) => h('th', {}, c)))), body));
  }

  const pretty = (x) => (typeof x === 'string' ? x : JSON.stringify(x, null, 2));
  function folded(text, testid) {
    if (text.length <= FOLD) return h('pre', { class: 'result', 'data-testid': testid }, text);
    return h('details', { class: 'result', 'data-testid': testid }, h('summary', {}, `${text.slice(0, 120).replace(/\s+/g, ' ')}… (${text.length.toLocaleString('en-US')} characters)`), h('pre', {}, text));
  }

  const CONTEXT = 3; // unchanged lines kept around a change; longer unchanged runs are folded
  function diffView(change) {
    // change: one write's diff (WriteDiff in data.ts)
    const lines = change.diff;
    const near = lines.map((_, i) => lines.slice(Math.max(0, i - CONTEXT), i + CONTEXT + 1).some(([op]) => op !== ' '));
    const out = [];
    for (let i = 0; i < lines.length;) {
      if (near[i]) {
        const [op, line] = lines[i++];
        out.push(h('span', { class: op === '+' ? 'add' : op === '-' ? 'del' : 'ctx' }, `${op} ${line}\n`));
        continue;
      }
      let j = i;
      while (j < lines.length && !near[j]) j++;
      out.push(h('span', { class: 'fold' }, `  … ${j - i} unchanged line(s)\n`));
      i = j;
    }
    return h('div', { class: 'diff', 'data-testid': 'diff', 'data-resource': change.resource },
      h('div', { class: 'diff-head' }, change.resource, change.seq !== undefined ? ` #${change.seq}` : '', change.span === 'write' ? ' (before → after this write)' : ' (as the episode found it → as it left it)'),
      h('pre', {}, out));
  }

  function goToStep(n) {
    const el = document.getElementById(`step-${n}`);
    if (!el) return;
    document.querySelectorAll('.step.highlight').forEach((x) => x.classList.remove('highlight'));
    el.classList.add('highlight');
    el.scrollIntoView({ block: 'center' });
  }

  // A page served by `ehr-gym view` fetches each trajectory from its server when it is opened (data.lazy).
  function fetchEpisode(run, r) {
    fetch(`episode?run=${r.run}&id=${encodeURIComponent(r.id)}`)
      .then((res) => (res.ok ? res.json() : Promise.reject(new Error(`${res.status}`))))
      .then((ep) => { run.trajectories[r.id] = ep; }, () => { run.trajectories[r.id] = null; })
      .then(() => { const now = route(); if (now.view === 'episode' && now.id === r.id) render(); });
    return h('main', { 'data-testid': 'loading' }, h('p', { class: 'muted' }, `loading ${r.id}…`));
  }

  function episodeView(run, r) {
    if (data.lazy && run.trajectories[r.id] === undefined && run.episodes.some((e) => e.id === r.id)) return fetchEpisode(run, r);
    const ep = run.trajectories[r.id];
    if (!ep) return h('main', {}, h('p', {}, `No episode ${r.id} in this run.`), h('a', { href: link(r.run, 'episodes') }, 'back to the episodes'));
    const e = ep.row;
    const verdicts = h('section', { 'data-testid': 'verdicts' }, h('h3', {}, `checkpoints: score ${e.outcome === 'infra_error' ? '–' : pct(e.score)}`),
      ep.verdicts.length === 0 ? h('p', { class: 'muted' }, 'not graded') : h('table', { class: 'grid' }, h('tbody', {}, ep.verdicts.map((v) => h('tr', { class: v.pass ? 'passed' : 'failed', 'data-testid': 'verdict', 'data-checkpoint': v.id },
        h('td', {}, h('span', { class: `badge ${v.pass ? 'passed' : 'failed'}` }, v.pass ? 'pass' : 'fail')), h('td', {}, h('b', {}, v.id), h('div', { class: 'muted' }, `${v.category} · weight ${v.weight}${v.critical ? ' · critical' : ''}${v.failure ? ` · ${v.failure}` : ''}`)),
        h('td', {}, h('ul', { class: 'evidence' }, v.evidence.map((ev) => h('li', {}, ev.text, ev.links.map((l) => h('a', { href: '#', class: 'evidence-link', 'data-step': l.step, onclick: (event) => { event.preventDefault(); goToStep(l.step); } }, ` → step ${l.step} (${l.text})`)))))))))));
    const steps = h('section', { 'data-testid': 'timeline' }, h('h3', {}, ep.conversation ? 'timeline' : 'timeline (no model conversation recorded: the agent\'s requests)'),
      ep.steps.map((s) => h('div', { class: `step ${s.source}`, id: `step-${s.n}`, 'data-testid': 'step' },
        h('div', { class: 'step-head' }, `${s.n}. ${s.source}`, s.turn ? h('span', { class: 'muted' }, ` · ${num(s.turn.usage.prompt)} + ${num(s.turn.usage.completion)} tokens · ${s.turn.latencyMs} ms · ${s.turn.finishReason}${s.turn.retries.length ? ` · ${s.turn.retries.length} retr${s.turn.retries.length === 1 ? 'y' : 'ies'}` : ''}`) : null),
        s.text ? folded(s.text, 'message') : null,
        s.toolCalls.map((c) => h('div', { class: 'tool-call', 'data-testid': 'tool-call' }, h('code', {}, c.name), folded(pretty(c.arguments), 'arguments'),
          s.results.filter((x) => x.callId === c.id).map((x) => h('div', { class: `tool-result ${x.isError ? 'error' : ''}` }, h('span', { class: 'muted' }, 'result'), folded(x.text, 'tool-result'))))),
        s.toolCalls.length === 0 ? s.results.map((x) => folded(x.text, 'tool-result')) : null,
        s.requests.length ? h('ul', { class: 'requests' }, s.requests.map((q) => h('li', { class: q.write ? 'write' : '' }, h('code', {}, `#${q.seq} ${q.line}`), ` → ${q.status}`))) : null,
        s.diffs.map(diffView))));
    const unplaced = ep.changes.flatMap((c) => c.writes.filter((w) => w.step === undefined));
    return h('main', { 'data-testid': 'episode' },
      h('p', {}, h('a', { href: link(r.run, 'episodes') }, '← episodes')),
      h('h2', {}, `${e.task} · ${e.variant} · trial ${e.trial} `, h('span', { class: `badge ${e.outcome}` }, e.outcome)),
      h('p', { class: 'muted' }, `agent ${ep.agent}${ep.model ? ` (${ep.model})` : ''} · ${e.toolCalls} tool call(s) · ${e.writes} write(s) · ${num(e.tokens)} tokens · ${usd(e.cost)} · ${secs(e.durationMs)} · session ${ep.session}`),
      ep.infraError ? h('p', { class: 'warn', 'data-testid': 'infra-error' }, `infrastructure error (not scored): ${ep.infraError}`) : null,
      e.error ? h('p', { class: 'warn' }, `agent error: ${e.error}`) : null,
      h('section', {}, h('h3', {}, 'answer'), ep.answer === undefined || ep.answer === null ? h('p', { class: 'muted' }, 'no answer submitted') : folded(pretty(ep.answer), 'answer')),
      verdicts, steps,
      unplaced.length ? h('section', {}, h('h3', {}, 'changes no step can be tied to'), unplaced.map(diffView)) : null);
  }

  function compareView() {
    const [a, b] = data.runs;
    const delta = (x) => (x === undefined ? '–' : `${x > 0 ? '+' : ''}${(x * 100).toFixed(1)} pts`);
    const side = (s) => (s ? `${pct(s.episodes ? s.passRate : undefined)} (${s.passes}/${s.episodes})` : 'not run');
    return h('main', { 'data-testid': 'compare' },
      h('div', { class: 'cards' },
        card(`pass@1 ${a.label}`, pct(a.summary.pass1), 'compare-pass1-a'), card(`pass@1 ${b.label}`, pct(b.summary.pass1), 'compare-pass1-b'),
        card('change', delta(b.summary.pass1 - a.summary.pass1), 'compare-change'),
        card('checkpoint score', `${pct(a.summary.checkpointScore)} → ${pct(b.summary.checkpointScore)}`, 'compare-score')),
      h('table', { class: 'grid' }, h('thead', {}, h('tr', {}, h('th', {}, 'task'), h('th', {}, `pass in ${a.label}`), h('th', {}, `pass in ${b.label}`), h('th', {}, 'change'))),
        h('tbody', {}, data.comparison.map((c) => h('tr', { 'data-testid': 'compare-row', 'data-task': c.task, class: c.change > 0 ? 'better' : c.change < 0 ? 'worse' : '' },
          h('td', {}, c.task), h('td', { class: 'num' }, side(c.a)), h('td', { class: 'num' }, side(c.b)), h('td', { class: 'num' }, delta(c.change)))))));
  }

  function render() {
    const r = route();
    if (r.view !== 'compare') state.run = r.run;
    const run = data.runs[state.run];
    const view = r.view === 'compare' ? compareView() : r.view === 'tasks' ? tasksView(run, r) : r.view === 'episodes' ? episodesView(run, r) : r.view === 'episode' ? episodeView(run, r) : overview(run, r);
    app.replaceChildren(nav(r), view);
    if (r.view !== 'episode') window.scrollTo(0, 0);
  }
  window.addEventListener('hashchange', render);
  render();
})();
