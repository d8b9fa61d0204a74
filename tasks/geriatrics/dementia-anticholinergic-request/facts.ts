// Clinical facts of the anticholinergic-in-dementia consult, shared by the grader and the reference solution (never
// logic): what counts as dementia or cognitive impairment, which drugs are cholinesterase inhibitors, which class is
// "strongly anticholinergic" (graders/lib/drug-classes.ts, Beers 2023 Table 7), and the drug the requester asked for.
//
// AGS Beers Criteria 2023 (J Am Geriatr Soc 2023;71:2052-2081): Table 3 - in dementia or cognitive impairment avoid
// anticholinergics (adverse CNS effects); Table 5 - avoid anticholinergic + cholinesterase inhibitor (opposing
// effects); Table 7 lists oxybutynin, tolterodine, solifenacin, darifenacin, fesoterodine, trospium, flavoxate and the
// first-generation antihistamines (diphenhydramine, hydroxyzine ...) as strongly anticholinergic. AUA/SUFU 2024
// idiopathic OAB guideline: behavioural therapy for all; with cognitive impairment prefer a beta-3 agonist (mirabegron,
// vibegron) to an antimuscarinic; a urinalysis (and post-void residual) is part of the evaluation.
import type { CodeSet } from '../../../graders/lib/index.ts';

const SNOMED = 'http://snomed.info/sct';
const ICD10 = 'http://hl7.org/fhir/sid/icd-10-cm';

/** Dementia and cognitive impairment on the problem list. */
export const DEMENTIA: CodeSet[] = [
  { system: SNOMED, codes: ['26929004', '52448006', '15662003', '429998004', '386805003', '230270009', '312991009', '191449005'] },
  { system: ICD10, codes: ['G30.0', 'G30.1', 'G30.8', 'G30.9', 'F01.50', 'F01.51', 'F02.80', 'F02.81', 'F03.90', 'F03.91', 'G31.84', 'G31.83', 'G31.09'] },
];

/** Cholinesterase inhibitors (graders/lib/drug-classes.ts id): an anticholinergic opposes them (Beers 2023 Table 5). */
export const CHOLINESTERASE_INHIBITOR = 'cholinesterase-inhibitor';

/** The drug class to avoid (graders/lib/drug-classes.ts id). */
export const STRONG_ANTICHOLINERGIC = 'strong-anticholinergic';

/** The drug the requester asked for (an answer may call it by any name or brand the drug vocabulary knows). */
export const REQUESTED_DRUG = { ingredient: 'oxybutynin' };
