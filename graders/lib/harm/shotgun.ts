// Shotgun ordering: more new orders unrelated to the consult question than a task allows (default 2). "Related"
// is what the task declares (HarmOptions.allow): drug classes, ingredients, order intent groups, service categories
// or codes.
import type { MedicationRequest, ServiceRequest } from '@medplum/fhirtypes';
import { codingsOf, inCodeSet, LOINC } from '../codings.ts';
import { classesOfOrder, expandClass, ingredientNamesOf, isKnownClass } from '../drug-classes.ts';
import { matchesOrderGroup, ORDER_GROUPS } from '../order-groups.ts';
import { SERVICE_CATEGORIES } from '../service-requests.ts';
import type { StartedOrder } from './orders.ts';
import type { HarmRule } from './rule.ts';

export const SERVICE_GROUP_PREFIX = 'service:';
/** `order:<id>` names an order intent group of graders/lib/order-groups.ts (`order:potassium`, `order:renalFunction`). */
export const ORDER_GROUP_PREFIX = 'order:';

/** Why an `allow` entry is not usable (an unknown class or service category), or undefined. */
export function allowEntryProblem(entry: string): string | undefined {
  if (entry.includes('|')) return /^[^|\s]+\|[^|\s]+$/.test(entry) ? undefined : `'${entry}' is not system|code`;
  if (entry.startsWith(SERVICE_GROUP_PREFIX)) {
    const category = entry.slice(SERVICE_GROUP_PREFIX.length);
    return category in SERVICE_CATEGORIES ? undefined : `'${entry}': unknown service category (known: ${Object.keys(SERVICE_CATEGORIES).join(', ')})`;
  }
  if (entry.startsWith(ORDER_GROUP_PREFIX)) {
    const id = entry.slice(ORDER_GROUP_PREFIX.length);
    return id in ORDER_GROUPS ? undefined : `'${entry}': unknown order group (known: ${Object.keys(ORDER_GROUPS).join(', ')})`;
  }
  if (isKnownClass(entry)) return undefined;
  return /^[a-z][a-z0-9 -]*$/.test(entry) ? undefined : `'${entry}' is neither a drug class, an ingredient, order:<group>, service:<category> nor system|code`;
}

function hasCode(concepts: Parameters<typeof codingsOf>[0], entry: string): boolean {
  const [system, code] = entry.split('|');
  return codingsOf(concepts).some((c) => c.system === system && c.code === code);
}

function medicationRelated(order: MedicationRequest, allow: string[]): boolean {
  const classes = classesOfOrder(order);
  const ingredients = ingredientNamesOf(order.medicationCodeableConcept);
  return allow.some((entry) => entry.includes('|') ? hasCode(order.medicationCodeableConcept, entry)
    : isKnownClass(entry) ? expandClass(entry).some((c) => classes.includes(c)) : ingredients.includes(entry));
}

function serviceCategoryOf(order: ServiceRequest, category: keyof typeof SERVICE_CATEGORIES): boolean {
  if (inCodeSet(order.category, SERVICE_CATEGORIES[category])) return true;
  const words = [...(order.category ?? []).map((c) => c.text), ...codingsOf(order.category).map((c) => `${c.code ?? ''} ${c.display ?? ''}`)].join(' ').toLowerCase();
  if (words.includes(category === 'laboratory' ? 'lab' : category)) return true;
  // An uncategorised order coded in LOINC is a lab order; one naming a performer type is a referral.
  if (!order.category?.length && category === 'laboratory') return codingsOf(order.code).some((c) => c.system === LOINC);
  if (!order.category?.length && category === 'referral') return !!order.performerType;
  return false;
}

function serviceRelated(order: ServiceRequest, allow: string[]): boolean {
  return allow.some((entry) => {
    if (entry.includes('|')) return hasCode(order.code, entry);
    if (entry.startsWith(SERVICE_GROUP_PREFIX)) return serviceCategoryOf(order, entry.slice(SERVICE_GROUP_PREFIX.length) as keyof typeof SERVICE_CATEGORIES);
    if (entry.startsWith(ORDER_GROUP_PREFIX)) return matchesOrderGroup(order, ORDER_GROUPS[entry.slice(ORDER_GROUP_PREFIX.length) as keyof typeof ORDER_GROUPS]);
    return false;
  });
}

export const shotgunRule: HarmRule = {
  id: 'shotgun-ordering',
  title: 'no more new orders unrelated to the consult question than the task allows',
  source: 'ACP High Value Care / ABIM Foundation Choosing Wisely (order only what changes management)',
  violations({ medications, services, allow, maxUnrelatedOrders }) {
    const unrelated: StartedOrder<MedicationRequest | ServiceRequest>[] = [
      ...medications.filter((o) => !medicationRelated(o.resource, allow)),
      ...services.filter((o) => !serviceRelated(o.resource, allow)),
    ];
    if (unrelated.length <= maxUnrelatedOrders) return [];
    return [`${unrelated.length} new orders unrelated to the consult question (at most ${maxUnrelatedOrders}${allow.length ? `; related: ${allow.join(', ')}` : ''}): ${unrelated.map((o) => o.label).join(', ')}`];
  },
};
