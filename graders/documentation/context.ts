// Documentation checks over an episode: the notes the agent wrote (DocumentReference / Communication created or
// updated in the session, and text deliverables), the session's final chart read over HTTP, and the per-note report
// the runner prints (claims, supported share, contradicted, unsupported, key-fact coverage).
import type { Communication, DocumentReference } from '@medplum/fhirtypes';
import type { GraderContext } from '../../contracts/task.ts';
import type { PatientChart } from '../../resources/evidence/chart.ts';
import { chartFromFhir } from './chart-source.ts';
import { noteReport, type KeyFact, type NoteReport } from './checkpoints.ts';
import type { NoteInput } from './note-text.ts';

export interface WrittenNote {
  /** `DocumentReference/id`, `Communication/id` or `file:<name>`. */
  source: string;
  note: NoteInput;
}

/** Notes the agent wrote for the patient in this episode, in write order, then text deliverables. */
export function writtenNotes(ctx: Pick<GraderContext, 'changes' | 'files' | 'patient'>): WrittenNote[] {
  const out: WrittenNote[] = [];
  for (const change of ctx.changes) {
    if (change.action === 'deleted' || change.action === 'created-then-deleted' || !change.after) continue;
    if (change.type !== 'DocumentReference' && change.type !== 'Communication') continue;
    const r = change.after as DocumentReference | Communication;
    const subject = r.subject?.reference;
    if (ctx.patient && subject && subject !== `Patient/${ctx.patient}`) continue;
    if (r.status === 'entered-in-error') continue;
    out.push({ source: `${change.type}/${change.id}`, note: r });
  }
  for (const [name, text] of Object.entries(ctx.files ?? {})) if (typeof text === 'string' && text.trim()) out.push({ source: `file:${name}`, note: text });
  return out;
}

const charts = new WeakMap<object, Map<string, Promise<PatientChart>>>();

/** The session's chart for the patient, read once per grading client (graders run after the agent's last write). */
export function episodeChart(ctx: Pick<GraderContext, 'fhir' | 'patient'>): Promise<PatientChart> {
  const byPatient = charts.get(ctx.fhir) ?? new Map<string, Promise<PatientChart>>();
  charts.set(ctx.fhir, byPatient);
  let chart = byPatient.get(ctx.patient);
  if (!chart) {
    chart = chartFromFhir(ctx.fhir, ctx.patient);
    byPatient.set(ctx.patient, chart);
  }
  return chart;
}

/** The per-note report for every note the agent wrote (for the runner's documentation columns). */
export async function documentationReports(ctx: Pick<GraderContext, 'fhir' | 'patient' | 'changes' | 'files' | 'now'>, keyFacts?: KeyFact[]): Promise<(NoteReport & { source: string })[]> {
  const notes = writtenNotes(ctx);
  if (!notes.length) return [];
  const chart = await episodeChart(ctx);
  return notes.map(({ source, note }) => ({ source, ...noteReport(note, chart, keyFacts, { asOf: ctx.now }) }));
}
