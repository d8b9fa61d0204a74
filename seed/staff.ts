// The care organisation: one health system, a clinic per specialty, two practitioners each, with roles and locations.
import type { Location, Organization, Practitioner, PractitionerRole, Resource } from '@medplum/fhirtypes';
import { SNOMED, HL7, codingOf } from './codes/index.ts';
import { Rng } from './random.ts';
import { FAMILY_NAMES, GIVEN_FEMALE, GIVEN_MALE } from './names.ts';

export const SPECIALTIES = {
  primaryCare: { snomed: '394814009', clinic: 'Family Medicine' },
  internalMedicine: { snomed: '419192003', clinic: 'Internal Medicine' },
  cardiology: { snomed: '394579002', clinic: 'Cardiology' },
  endocrinology: { snomed: '394583002', clinic: 'Endocrinology' },
  nephrology: { snomed: '394589003', clinic: 'Nephrology' },
  pulmonology: { snomed: '418112009', clinic: 'Pulmonology' },
  gastroenterology: { snomed: '394584008', clinic: 'Gastroenterology' },
  neurology: { snomed: '394591006', clinic: 'Neurology' },
  psychiatry: { snomed: '394587001', clinic: 'Behavioral Health' },
  dermatology: { snomed: '394582007', clinic: 'Dermatology' },
  rheumatology: { snomed: '394810000', clinic: 'Rheumatology' },
  oncology: { snomed: '394593009', clinic: 'Oncology' },
  hematology: { snomed: '394803006', clinic: 'Hematology' },
  infectiousDisease: { snomed: '394807007', clinic: 'Infectious Disease' },
  urology: { snomed: '394612005', clinic: 'Urology' },
  obstetrics: { snomed: '394585009', clinic: "Women's Health" },
  pediatrics: { snomed: '394537008', clinic: 'Pediatrics' },
  geriatrics: { snomed: '394811001', clinic: 'Geriatrics' },
  allergy: { snomed: '408439002', clinic: 'Allergy and Immunology' },
  radiology: { snomed: '394914008', clinic: 'Radiology' },
  generalSurgery: { snomed: '394609007', clinic: 'General Surgery' },
  orthopedics: { snomed: '394801008', clinic: 'Orthopedics' },
  emergency: { snomed: '773568002', clinic: 'Emergency Department' },
} as const;

export type Specialty = keyof typeof SPECIALTIES;

export interface Clinician {
  practitionerId: string;
  roleId: string;
  name: string;
  specialty: Specialty;
  organizationId: string;
  locationId: string;
}

export interface Staff {
  resources: Resource[];
  healthSystemId: string;
  bySpecialty: Record<Specialty, Clinician[]>;
  organizationName(id: string): string;
}

/** The staff of a dataset: deterministic from the seed. */
export function buildStaff(seed: number): Staff {
  const rng = new Rng(`${seed}/staff`);
  const resources: Resource[] = [];
  const healthSystemId = `s${seed}-org-system`;
  const names = new Map<string, string>();
  const system: Organization = {
    resourceType: 'Organization', id: healthSystemId, active: true, name: 'Riverside Health System',
    type: [{ coding: [codingOf(HL7.orgType, 'prov')] }],
    identifier: [{ system: 'http://ehr-gym.example/fhir/NamingSystem/organization', value: 'RHS' }],
    telecom: [{ system: 'phone', value: '555-010-0000', use: 'work' }],
    address: [{ line: ['100 Riverside Drive'], city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' }],
  };
  resources.push(system);
  names.set(healthSystemId, system.name!);
  const bySpecialty = {} as Record<Specialty, Clinician[]>;
  let npi = 1000000001 + (seed % 1000) * 1000;
  for (const [key, spec] of Object.entries(SPECIALTIES) as [Specialty, (typeof SPECIALTIES)[Specialty]][]) {
    const slug = key.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase());
    const orgId = `s${seed}-org-${slug}`;
    const locId = `s${seed}-loc-${slug}`;
    const orgName = `Riverside ${spec.clinic}`;
    names.set(orgId, orgName);
    const specialtyCoding = codingOf(SNOMED, spec.snomed);
    resources.push({
      resourceType: 'Organization', id: orgId, active: true, name: orgName, partOf: { reference: `Organization/${healthSystemId}` },
      type: [{ coding: [codingOf(HL7.orgType, 'prov')] }],
    } satisfies Organization);
    resources.push({
      resourceType: 'Location', id: locId, status: 'active', name: `${orgName} Clinic`, mode: 'instance',
      managingOrganization: { reference: `Organization/${orgId}` },
      address: { line: [`${100 + resources.length} Riverside Drive`], city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' },
    } satisfies Location);
    bySpecialty[key] = [];
    for (let i = 1; i <= 2; i++) {
      const female = rng.chance(0.5);
      const given = rng.pick(female ? GIVEN_FEMALE : GIVEN_MALE);
      const family = rng.pick(FAMILY_NAMES);
      const pracId = `s${seed}-prac-${slug}-${i}`;
      const roleId = `s${seed}-role-${slug}-${i}`;
      resources.push({
        resourceType: 'Practitioner', id: pracId, active: true,
        identifier: [{ system: 'http://hl7.org/fhir/sid/us-npi', value: String(npi++) }],
        name: [{ use: 'official', family, given: [given], prefix: ['Dr.'], suffix: ['MD'] }],
        gender: female ? 'female' : 'male',
        telecom: [{ system: 'phone', value: `555-020-${String(resources.length).padStart(4, '0')}`, use: 'work' }],
      } satisfies Practitioner);
      resources.push({
        resourceType: 'PractitionerRole', id: roleId, active: true,
        practitioner: { reference: `Practitioner/${pracId}` }, organization: { reference: `Organization/${orgId}` },
        code: [{ coding: [codingOf(HL7.roleCode, 'doctor')] }],
        specialty: [{ coding: [specialtyCoding], text: spec.clinic }],
        location: [{ reference: `Location/${locId}` }],
      } satisfies PractitionerRole);
      bySpecialty[key].push({ practitionerId: pracId, roleId, name: `Dr. ${given} ${family}`, specialty: key, organizationId: orgId, locationId: locId });
    }
  }
  return { resources, healthSystemId, bySpecialty, organizationName: (id) => names.get(id) ?? '' };
}
