// Documentation grading: claim extraction, claim verification against the chart, the `covers` and `grounded`
// checkpoints and the per-note report. Task graders import from here.
export { extractClaims, findCitations, type Claim, type ClaimKind, type Citation, type ExtractedNote } from './claims.ts';
export { verifyClaim, verifyClaims, verifyNoteText, type ClaimVerdict, type ClaimVerification, type VerifyOptions } from './verify.ts';
export { covers, grounded, noteReport, describeReport, keyFactOf, keyFactOfConcept, claimStatesFact, type KeyFact, type NoteReport, type DocumentationOptions } from './checkpoints.ts';
export { noteTextOf, noteDateOf, type NoteInput } from './note-text.ts';
export { chartFromFhir } from './chart-source.ts';
export { PatientChart } from '../../resources/evidence/chart.ts';
export { vocabulary, Vocabulary } from '../../resources/evidence/vocabulary.ts';
export { judgeNote, judgeConfigFromEnv, JUDGE_PROMPT, type JudgeConfig, type JudgeResult, type RubricItem } from './judge.ts';
export { writtenNotes, episodeChart, documentationReports, type WrittenNote } from './context.ts';
