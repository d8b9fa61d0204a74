// Clinical topics as data: each topic is a ValueSet whose includes are concept-group ValueSets with a weight
// (resources/evidence/data/topics.json). Groups are expanded by the terminology service, so "kidney disease" means
// every SNOMED CT concept below it and "anticoagulants" every RxNorm ingredient listed - no codes in the ranker.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ValueSet } from '@medplum/fhirtypes';
import type { TerminologyService } from '../terminology/service.ts';
import { sharedTerminology } from '../terminology/index.ts';

export const GROUP_WEIGHT_URL = 'http://ehr-gym.example/fhir/StructureDefinition/evidence-group-weight';
export const TOPIC_KEYWORD_URL = 'http://ehr-gym.example/fhir/StructureDefinition/evidence-topic-keyword';

export interface ConceptGroup {
  url: string;
  name: string;
  title: string;
  /** `system|code` of every member. */
  codes: Set<string>;
}

export interface Topic {
  /** Short name, e.g. `ckd-progression` (the ValueSet id without `evidence-topic-`). */
  name: string;
  url: string;
  title: string;
  keywords: string[];
  groups: { group: ConceptGroup; weight: number }[];
}

export interface TopicCatalog {
  topics: Topic[];
  groups: Map<string, ConceptGroup>;
  /** The topic by name, id or canonical URL. */
  topic(nameOrUrl: string): Topic | undefined;
  /** Topics whose keywords the question uses (word or phrase match). */
  topicsForQuestion(question: string): Topic[];
  /** The ValueSets themselves (for serving or listing). */
  valueSets: ValueSet[];
}

const here = dirname(fileURLToPath(import.meta.url));

export function readTopicValueSets(): ValueSet[] {
  return JSON.parse(readFileSync(join(here, 'data', 'topics.json'), 'utf8')) as ValueSet[];
}

export function buildTopicCatalog(service: TerminologyService, valueSets: ValueSet[] = readTopicValueSets()): TopicCatalog {
  const groups = new Map<string, ConceptGroup>();
  const topics: Topic[] = [];
  for (const vs of valueSets) {
    if (vs.compose?.include.some((i) => i.valueSet?.length)) continue;
    const items = service.expander.expand(vs);
    groups.set(vs.url!, { url: vs.url!, name: vs.id!.replace(/^evidence-group-/, ''), title: vs.title ?? vs.name ?? vs.id!, codes: new Set(items.map((i) => `${i.system}|${i.code}`)) });
  }
  for (const vs of valueSets) {
    if (!vs.compose?.include.some((i) => i.valueSet?.length)) continue;
    topics.push({
      name: vs.id!.replace(/^evidence-topic-/, ''),
      url: vs.url!,
      title: vs.title ?? vs.name ?? vs.id!,
      keywords: (vs.extension ?? []).filter((e) => e.url === TOPIC_KEYWORD_URL).map((e) => e.valueString!.toLowerCase()),
      groups: vs.compose!.include.flatMap((inc) => (inc.valueSet ?? []).map((url) => {
        const group = groups.get(url);
        if (!group) throw new Error(`topic ${vs.url} includes unknown group ${url}`);
        const weight = inc.extension?.find((e) => e.url === GROUP_WEIGHT_URL)?.valueDecimal ?? 1;
        return { group, weight };
      })),
    });
  }
  const normal = (s: string) => s.toLowerCase().replace(/[^a-z0-9+]+/g, ' ').trim();
  return {
    topics, groups, valueSets,
    topic: (key) => {
      const k = key.trim().toLowerCase();
      return topics.find((t) => t.name === k || t.url === key || `evidence-topic-${t.name}` === k || normal(t.title) === normal(key));
    },
    topicsForQuestion: (question) => {
      const q = ` ${normal(question)} `;
      return topics.filter((t) => t.keywords.some((k) => q.includes(` ${normal(k)} `)));
    },
  };
}

/** Expanding every group takes a while: one catalog per terminology service (a server has one for its life). */
const catalogs = new WeakMap<TerminologyService, TopicCatalog>();

/** The topic catalog over `service`, built on first use. */
export function topicCatalogOf(service: TerminologyService): TopicCatalog {
  let catalog = catalogs.get(service);
  if (!catalog) catalogs.set(service, (catalog = buildTopicCatalog(service)));
  return catalog;
}

/**
 * For callers that have no server and so no ServerContext.terminology (graders reading notes, the validation
 * scripts, benchmarks): the catalog over the process's shared terminology service. The server passes its own.
 */
export function topicCatalog(): TopicCatalog {
  return topicCatalogOf(sharedTerminology());
}
