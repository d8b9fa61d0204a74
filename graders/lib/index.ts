// The grader library: matchers that report every mismatch with evidence. Task graders import from here.
export * from './match.ts';
export * from './codings.ts';
export * from './units.ts';
export * from './answers.ts';
export * from './resources.ts';
export * from './changes.ts';
export * from './medications.ts';
export * from './service-requests.ts';
export * from './conditions.ts';
export * from './discontinuations.ts';
export * from './referrals.ts';
export * from './appointments.ts';
export * from './notes.ts';
export * from './safety.ts';
export * from './retrieval.ts';
export * from './chart.ts';
