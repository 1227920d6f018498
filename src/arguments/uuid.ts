import { z } from 'zod';

/** A UUID in its canonical text form, any case: the ids of API keys, webhooks and deliveries. */
const UUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/**
 * An id argument that must be a UUID: anything else is refused with `must be <what> (UUID)`, a malformed id rather
 * than an unknown one.
 * @example uuidArgument('a webhook id').parse('3b241101-e2bb-4255-8caf-4136c566a962')
 */
export function uuidArgument(what: string) {
  return z.string().regex(UUID_PATTERN, `must be ${what} (UUID)`);
}
