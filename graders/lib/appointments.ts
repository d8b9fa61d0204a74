// Appointments: for the patient, with a status that holds a slot, a service type or specialty, and a start window.
import type { Appointment } from '@medplum/fhirtypes';
import { describeConcept, inCodeSet, type CodeSet } from './codings.ts';
import { bestOf, matchOf, type Match } from './match.ts';
import { checkOneOf, checkPatient, label } from './resources.ts';

export interface AppointmentExpectation {
  patient?: string;
  status?: string[];
  /** serviceType or specialty codes. */
  service?: CodeSet[];
  serviceWords?: string[];
  /** The start must fall in [notBefore, notAfter] (dates or instants). */
  notBefore?: string;
  notAfter?: string;
}

export function matchAppointment(appointment: Appointment, expected: AppointmentExpectation): Match<Appointment> {
  const mismatches: string[] = [];
  checkPatient(appointment, expected.patient, mismatches);
  checkOneOf('status', appointment.status, expected.status ?? ['proposed', 'pending', 'booked'], mismatches);
  if (expected.service || expected.serviceWords) {
    const concepts = [...(appointment.serviceType ?? []), ...(appointment.specialty ?? [])];
    const text = [describeConcept(concepts), appointment.description].join(' ').toLowerCase();
    const ok = (expected.service && inCodeSet(concepts, expected.service)) || expected.serviceWords?.some((w) => text.includes(w.toLowerCase()));
    if (!ok) mismatches.push(`service ${describeConcept(concepts)} is not ${[...(expected.serviceWords ?? []), ...(expected.service ?? []).flatMap((s) => s.codes)].join(' / ')}`);
  }
  const start = appointment.start;
  if (expected.notBefore || expected.notAfter) {
    if (!start) mismatches.push('no start time');
    else {
      if (expected.notBefore && Date.parse(start) < Date.parse(expected.notBefore)) mismatches.push(`starts ${start}, before ${expected.notBefore}`);
      if (expected.notAfter && Date.parse(start) > Date.parse(expected.notAfter)) mismatches.push(`starts ${start}, after ${expected.notAfter}`);
    }
  }
  return matchOf(mismatches, [`${label(appointment)}: ${appointment.status}, start ${start ?? '(none)'}`], appointment);
}

export function findAppointment(appointments: Appointment[], expected: AppointmentExpectation): Match<Appointment> {
  return bestOf(appointments, (a) => matchAppointment(a, expected), label, 'no Appointment was written');
}
