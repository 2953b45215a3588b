import type { TFunction } from 'i18next';
import type { PeopleLookup } from '../api/people';

/** A user id as a name: inactive people marked, unknown ones by id (… while looking up). */
export function personLabel(t: TFunction, people: PeopleLookup, id: number): string {
  const person = people.byId.get(id);
  if (!person) return people.isPending ? '…' : t('people.user', { id });
  return person.active ? person.name : t('people.inactive', { name: person.name });
}
