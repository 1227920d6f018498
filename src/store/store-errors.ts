/** Creating an API key whose id or hash already exists. */
export class ApiKeyConflictError extends Error {
  override name = 'ApiKeyConflictError';
  constructor(readonly id: string) {
    super(`API key ${id} conflicts with an existing key id or hash`);
  }
}

/** Crediting a key that does not exist (never created, or deleted). */
export class ApiKeyNotFoundError extends Error {
  override name = 'ApiKeyNotFoundError';
  constructor(readonly id: string) {
    super(`API key ${id} not found`);
  }
}

/** A parameter the store cannot work with (e.g. a non-positive limit or amount). */
export class StoreArgumentError extends Error {
  override name = 'StoreArgumentError';
}
