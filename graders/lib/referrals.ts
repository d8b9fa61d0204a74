// Referrals and communications to a specialty: a referral ServiceRequest (category referral, performerType or code
// naming the specialty) or a Communication to a recipient of that specialty, with required words in its payload.
import type { Communication, ServiceRequest } from '@medplum/fhirtypes';
import { codingsOf, describeConcept, inCodeSet, type CodeSet } from './codings.ts';
import { bestOf, matchOf, type Match } from './match.ts';
import { checkOneOf, checkPatient, label } from './resources.ts';
import { SERVICE_CATEGORIES } from './service-requests.ts';
import { matchTerms } from './answers.ts';

export interface SpecialtyExpectation {
  patient?: string;
  /** Specialty codes (e.g. SNOMED 394589003 Nephrology) ... */
  specialty: CodeSet[];
  /** ... or words naming it in text or display (e.g. ['nephrology', 'renal']). */
  specialtyWords: string[];
  status?: string[];
  priority?: string[];
  /** Words the referral reason / communication payload must contain. */
  mustMention?: (string | string[])[];
}

function namesSpecialty(concepts: Parameters<typeof codingsOf>[0], texts: (string | undefined)[], expected: SpecialtyExpectation): boolean {
  if (inCodeSet(concepts, expected.specialty)) return true;
  const words = [...codingsOf(concepts).map((c) => c.display), ...texts].filter(Boolean).join(' ').toLowerCase();
  return expected.specialtyWords.some((w) => words.includes(w.toLowerCase()));
}

const REFERRAL_WORDS = /\b(?:refer(?:ral|red|ring)?|consult(?:ation)?|e-?consult)\b/i;

/**
 * A referral ServiceRequest: coded as one (category or code), or saying so in its code or category text ("Referral to
 * allergist"), or addressed to a specialty (performerType). Category is optional everywhere in grading (issue 13).
 */
export function isReferral(order: ServiceRequest): boolean {
  if (inCodeSet(order.category, SERVICE_CATEGORIES.referral) || inCodeSet(order.code, SERVICE_CATEGORIES.referral)) return true;
  if (codingsOf(order.performerType).length > 0 || order.performerType?.text) return true;
  const texts = [order.code?.text, ...codingsOf(order.code).map((c) => c.display), ...(order.category ?? []).flatMap((c) => [c.text, ...codingsOf(c).map((x) => x.display)])];
  return texts.some((text) => text !== undefined && REFERRAL_WORDS.test(text));
}

export function matchReferral(order: ServiceRequest, expected: SpecialtyExpectation): Match<ServiceRequest> {
  const mismatches: string[] = [];
  checkPatient(order, expected.patient, mismatches);
  if (!isReferral(order)) {
    mismatches.push(`category ${describeConcept(order.category)} / code ${describeConcept(order.code)} is not a referral`);
  }
  const concepts = [order.performerType, order.code].filter((c) => c !== undefined);
  if (!namesSpecialty(concepts, [order.performerType?.text, order.code?.text, ...(order.performer ?? []).map((p) => p.display)], expected)) {
    mismatches.push(`does not name the specialty (${expected.specialtyWords.join('/')}): performerType ${describeConcept(order.performerType)}, code ${describeConcept(order.code)}`);
  }
  checkOneOf('status', order.status, expected.status, mismatches);
  checkOneOf('priority', order.priority ?? 'routine', expected.priority, mismatches);
  if (expected.mustMention) {
    const text = [...(order.reasonCode ?? []).flatMap((r) => [r.text, ...codingsOf(r).map((c) => c.display)]), ...(order.note ?? []).map((n) => n.text), order.patientInstruction]
      .filter(Boolean).join(' ');
    mismatches.push(...matchTerms(text, expected.mustMention).mismatches.map((m) => `reason/note ${m}`));
  }
  return matchOf(mismatches, [`${label(order)}: ${describeConcept(order.code)} to ${describeConcept(order.performerType)}`], order);
}

export function findReferral(orders: ServiceRequest[], expected: SpecialtyExpectation): Match<ServiceRequest> {
  return bestOf(orders, (o) => matchReferral(o, expected), label, 'no referral ServiceRequest was written');
}

export function matchCommunication(message: Communication, expected: SpecialtyExpectation): Match<Communication> {
  const mismatches: string[] = [];
  checkPatient(message, expected.patient, mismatches);
  const recipients = (message.recipient ?? []).map((r) => r.display);
  if (!namesSpecialty(message.category, [...recipients, message.topic?.text], expected)) {
    mismatches.push(`recipient/category does not name the specialty (${expected.specialtyWords.join('/')}): ${recipients.join(', ') || '(no recipient display)'}`);
  }
  checkOneOf('status', message.status, expected.status, mismatches);
  if (expected.mustMention) {
    const text = (message.payload ?? []).map((p) => p.contentString ?? (p.contentAttachment?.data ? Buffer.from(p.contentAttachment.data, 'base64').toString('utf8') : '')).join(' ');
    mismatches.push(...matchTerms(text, expected.mustMention).mismatches.map((m) => `payload ${m}`));
  }
  return matchOf(mismatches, [`${label(message)} to ${recipients.join(', ') || '(unnamed)'}`], message);
}

export function findCommunication(messages: Communication[], expected: SpecialtyExpectation): Match<Communication> {
  return bestOf(messages, (m) => matchCommunication(m, expected), label, 'no Communication was written');
}
