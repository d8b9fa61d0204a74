// Documentation checkpoints: `covers` (the note states the key facts the task requires, computed from the chart for
// the variant) and `grounded` (no claim contradicted by the chart, few unsupported), plus the per-note report the
// runner prints. Each returns a grader CheckResult ({pass, score, evidence}).
import type { AllergyIntolerance, Condition, MedicationRequest, Observation, Resource, ServiceRequest } from '@medplum/fhirtypes';
import type { CheckResult } from '../../contracts/task.ts';
import { PatientChart, clinicalTime, codingsOf, conceptOf, refOf } from '../../resources/evidence/chart.ts';
import { RXNORM, vocabulary, type ConceptRef, type Vocabulary } from '../../resources/evidence/vocabulary.ts';
import { drugIngredients } from '../lib/drugs.ts';
import { medicationOf } from '../lib/medications.ts';
import { extractClaims, type Claim, type ClaimKind } from './claims.ts';
import { noteDateOf, noteTextOf, type NoteInput } from './note-text.ts';
import { verifyClaims, type ClaimVerification, type VerifyOptions } from './verify.ts';

/** A fact the note must state: a concept (any of `codes`), and for results the value (the chart's, within tolerance). */
export interface KeyFact {
  id: string;
  description: string;
  kind: ClaimKind;
  /** `system|code` of the concept; any one suffices (e.g. LOINC and the local flowsheet code). */
  codes: string[];
  value?: { value: number; unit?: string };
  /** For medications: the order must be stated as stopped (a discontinuation) or as current. */
  status?: 'active' | 'stopped';
  negated?: boolean;
  /** The chart resource the fact comes from. */
  source?: string;
}

export interface NoteReport {
  claims: number;
  supported: number;
  contradicted: number;
  unsupported: number;
  unverifiable: number;
  /** supported / (supported + contradicted + unsupported); 1 when the note makes no checkable claim. */
  supportedShare: number;
  citationProblems: number;
  keyFacts?: { total: number; covered: number; coverage: number; missing: string[] };
  verifications: ClaimVerification[];
}

export interface DocumentationOptions extends VerifyOptions {
  vocabulary?: Vocabulary;
}

interface Checked {
  text: string;
  claims: Claim[];
  verifications: ClaimVerification[];
}

function check(note: NoteInput, chart: PatientChart | Resource[], options: DocumentationOptions): Checked & { chart: PatientChart } {
  const vocab = options.vocabulary ?? vocabulary();
  const c = chart instanceof PatientChart ? chart : new PatientChart(chart);
  const text = noteTextOf(note);
  const { claims } = extractClaims(text, vocab);
  const verifications = verifyClaims(claims, c, vocab, { asOf: noteDateOf(note), ...options });
  return { text, claims, verifications, chart: c };
}

function describeVerification(v: ClaimVerification): string {
  const ids = v.verdict === 'supported' ? v.evidence : v.conflicting;
  return `${v.verdict}: "${v.claim.text}" - ${v.reason}${ids.length ? ` [${ids.slice(0, 3).join(', ')}]` : ''}${v.citationProblems.length ? ` (${v.citationProblems.join('; ')})` : ''}`;
}

/** Does a claim state the key fact (same kind, shared code, value within tolerance, not contradicted)? */
export function claimStatesFact(v: ClaimVerification, fact: KeyFact): boolean {
  const c = v.claim;
  if (c.kind !== fact.kind || v.verdict === 'contradicted') return false;
  if (!c.concept.codes.some((code) => fact.codes.includes(code))) return false;
  if ((fact.negated ?? false) !== c.negated) return false;
  if (fact.status === 'stopped' && c.status !== 'stopped') return false;
  if (fact.status === 'active' && c.status === 'stopped') return false;
  if (fact.value) return v.verdict === 'supported' && c.value !== undefined && (!fact.source || v.evidence.includes(fact.source));
  return true;
}

/**
 * `documentation.covers`: every key fact is stated by a claim that the chart supports (results: the same value). Score
 * = share of facts covered; passes when all are (or `minCoverage` of them).
 */
export function covers(note: NoteInput, keyFacts: KeyFact[], chart: PatientChart | Resource[], options: DocumentationOptions & { minCoverage?: number } = {}): CheckResult & { score: number; evidence: string[] } {
  const { verifications } = check(note, chart, options);
  const evidence: string[] = [];
  let covered = 0;
  for (const fact of keyFacts) {
    const hit = verifications.find((v) => claimStatesFact(v, fact));
    if (hit) {
      covered++;
      evidence.push(`covered ${fact.id}: "${hit.claim.text}"${hit.evidence.length ? ` [${hit.evidence[0]}]` : ''}`);
    } else evidence.push(`missing ${fact.id}: ${fact.description}`);
  }
  const score = keyFacts.length ? covered / keyFacts.length : 1;
  return { pass: score >= (options.minCoverage ?? 1) - 1e-9, score, evidence };
}

/**
 * `documentation.grounded`: no contradicted claim and at most `maxUnsupported` unsupported ones (default 0).
 * Score = supported share of the checkable claims.
 */
export function grounded(note: NoteInput, chart: PatientChart | Resource[], options: DocumentationOptions & { maxUnsupported?: number } = {}): CheckResult & { score: number; evidence: string[] } {
  const { verifications } = check(note, chart, options);
  const r = summarize(verifications);
  const bad = verifications.filter((v) => v.verdict === 'contradicted' || v.verdict === 'unsupported');
  const pass = r.contradicted === 0 && r.unsupported <= (options.maxUnsupported ?? 0);
  const evidence = [
    `${r.claims} claims: ${r.supported} supported, ${r.contradicted} contradicted, ${r.unsupported} unsupported, ${r.unverifiable} unverifiable`,
    ...bad.map(describeVerification),
  ];
  return { pass, score: r.supportedShare, evidence, ...(pass ? {} : { failure: r.contradicted ? 'contradicted_claim' : 'unsupported_claim' }) };
}

function summarize(verifications: ClaimVerification[]): Omit<NoteReport, 'verifications' | 'keyFacts'> {
  const count = (verdict: string) => verifications.filter((v) => v.verdict === verdict).length;
  const supported = count('supported');
  const contradicted = count('contradicted');
  const unsupported = count('unsupported');
  const checkable = supported + contradicted + unsupported;
  return {
    claims: verifications.length, supported, contradicted, unsupported, unverifiable: count('unverifiable'),
    supportedShare: checkable ? supported / checkable : 1,
    citationProblems: verifications.reduce((n, v) => n + v.citationProblems.length, 0),
  };
}

/** The per-note report: claim counts by verdict, supported share, citation problems, key-fact coverage. */
export function noteReport(note: NoteInput, chart: PatientChart | Resource[], keyFacts?: KeyFact[], options: DocumentationOptions = {}): NoteReport {
  const { verifications } = check(note, chart, options);
  const report: NoteReport = { ...summarize(verifications), verifications };
  if (keyFacts) {
    const missing = keyFacts.filter((f) => !verifications.some((v) => claimStatesFact(v, f))).map((f) => f.id);
    report.keyFacts = { total: keyFacts.length, covered: keyFacts.length - missing.length, coverage: keyFacts.length ? 1 - missing.length / keyFacts.length : 1, missing };
  }
  return report;
}

/** One line per claim, for a human reading a failed checkpoint. */
export function describeReport(report: NoteReport): string[] {
  return report.verifications.map(describeVerification);
}

const KIND_OF: Record<string, ClaimKind> = {
  Observation: 'result', MedicationRequest: 'medication', MedicationStatement: 'medication', Condition: 'condition',
  AllergyIntolerance: 'allergy', ServiceRequest: 'order',
};

/**
 * A key fact stated by a chart resource (the latest potassium, the active metformin order, the CKD diagnosis):
 * graders compute them from the variant's chart, never hard-code them.
 */
export function keyFactOf(resource: Resource, options: { id?: string; description?: string; vocabulary?: Vocabulary; status?: 'active' | 'stopped' } = {}): KeyFact {
  const vocab = options.vocabulary ?? vocabulary();
  const kind = KIND_OF[resource.resourceType];
  if (!kind) throw new Error(`keyFactOf: ${resource.resourceType} is not a kind of fact a note states`);
  const codes = [...vocab.expandCodings(codingsOf(resource))];
  // A drug order is stated by its ingredient; a referral by its specialty.
  const sr = resource as ServiceRequest;
  if (resource.resourceType === 'ServiceRequest') codes.push(...vocab.expandCodings(sr.performerType?.coding));
  // A drug order is also known by the ingredients its codes or its text name: a text-only "empagliflozin 10 mg tablet",
  // a brand ("Jardiance 10 mg") or a contained Medication is covered by a note that names the drug.
  if (resource.resourceType === 'MedicationRequest' || resource.resourceType === 'MedicationStatement') {
    for (const rxcui of drugIngredients(medicationOf(resource as MedicationRequest).concept)) {
      const code = `${RXNORM}|${rxcui}`;
      if (!codes.includes(code)) codes.push(code);
    }
  }
  const concept = conceptOf(resource);
  const label = concept?.text ?? concept?.coding?.[0]?.display ?? resource.resourceType;
  const fact: KeyFact = { id: options.id ?? refOf(resource), description: options.description ?? label, kind, codes, source: refOf(resource) };
  const obs = resource as Observation;
  if (resource.resourceType === 'Observation' && obs.valueQuantity?.value !== undefined) {
    fact.value = { value: obs.valueQuantity.value, unit: obs.valueQuantity.code ?? obs.valueQuantity.unit };
    fact.description = options.description ?? `${label} ${obs.valueQuantity.value} ${obs.valueQuantity.unit ?? ''} (${clinicalTime(obs)?.slice(0, 10)})`.trim();
  }
  if (resource.resourceType === 'MedicationRequest') {
    const mr = resource as MedicationRequest;
    fact.status = options.status ?? (['active', 'on-hold', 'draft'].includes(mr.status) ? 'active' : 'stopped');
  }
  void (resource as Condition | AllergyIntolerance);
  return fact;
}

/** A key fact from a concept of the vocabulary (e.g. "the note says there is no heart failure"). */
export function keyFactOfConcept(id: string, kind: ClaimKind, concept: ConceptRef, extra: Partial<KeyFact> = {}): KeyFact {
  return { id, kind, description: concept.display, codes: concept.codes, ...extra };
}
