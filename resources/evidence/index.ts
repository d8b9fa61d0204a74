// Evidence retrieval for a clinical question: the patient's chart in memory, the terminology-backed vocabulary, topic
// concept groups (data), the ranker, the Bundle it answers with and the agent tool definition.
export { PatientChart, CHART_TYPES, belongsTo, clinicalTime, codingsOf, conceptOf, refOf } from './chart.ts';
export { Vocabulary, vocabulary, vocabularyOf, type ConceptRef, type Mention, type ConceptKind } from './vocabulary.ts';
export { buildTopicCatalog, topicCatalog, topicCatalogOf, readTopicValueSets, type Topic, type TopicCatalog, type ConceptGroup } from './topics.ts';
export { rankEvidence, UnknownTopicError, type EvidenceQuery, type RankedEvidence, type RankResult, type EvidenceReason } from './rank.ts';
export { evidenceBundle, reasonExtension, EVIDENCE_REASON_URL } from './bundle.ts';
