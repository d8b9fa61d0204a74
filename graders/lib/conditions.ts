// Problem-list changes (Condition): a problem added, resolved or corrected, by code set and clinical status.
import type { Condition } from '@medplum/fhirtypes';
import type { ResourceChange } from '../../contracts/gym-api.ts';
import { describeConcept, inCodeSet, type CodeSet } from './codings.ts';
import { bestOf, matchOf, type Match } from './match.ts';
import { checkPatient, label } from './resources.ts';

export interface ProblemExpectation {
  patient?: string;
  codes: CodeSet[];
  /** clinicalStatus codes accepted (e.g. ['active'] for a new problem, ['resolved', 'inactive'] for a resolved one). */
  clinicalStatus: string[];
  verificationStatus?: string[];
  /** Require category problem-list-item (default true). */
  problemList?: boolean;
}

function statusCode(concept: Condition['clinicalStatus']): string | undefined {
  return concept?.coding?.[0]?.code;
}

export function matchProblem(condition: Condition, expected: ProblemExpectation): Match<Condition> {
  const mismatches: string[] = [];
  checkPatient(condition, expected.patient, mismatches);
  if (!inCodeSet(condition.code, expected.codes)) mismatches.push(`code is ${describeConcept(condition.code)}, expected ${expected.codes.map((s) => `${s.system}|${s.codes.join(',')}`).join('; ')}`);
  const clinical = statusCode(condition.clinicalStatus);
  if (!clinical || !expected.clinicalStatus.includes(clinical)) mismatches.push(`clinicalStatus is ${clinical ?? '(missing)'}, expected ${expected.clinicalStatus.join(' or ')}`);
  const verification = statusCode(condition.verificationStatus);
  if (expected.verificationStatus && (!verification || !expected.verificationStatus.includes(verification))) {
    mismatches.push(`verificationStatus is ${verification ?? '(missing)'}, expected ${expected.verificationStatus.join(' or ')}`);
  }
  if (expected.problemList !== false && !(condition.category ?? []).some((c) => c.coding?.some((x) => x.code === 'problem-list-item'))) {
    mismatches.push('category is not problem-list-item');
  }
  return matchOf(mismatches, [`${label(condition)}: ${describeConcept(condition.code)}, ${clinical ?? 'no status'}`], condition);
}

/** A problem-list change among the episode's Condition writes (created or updated). */
export function findProblemChange(changes: ResourceChange[], expected: ProblemExpectation): Match<Condition> {
  const written = changes.filter((c) => c.type === 'Condition' && c.after).map((c) => c.after as Condition);
  return bestOf(written, (c) => matchProblem(c, expected), label, 'no Condition was created or updated');
}
