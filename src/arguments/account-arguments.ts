import { z } from 'zod';
import { uuidArgument } from './uuid.js';

/**
 * An API key id: a UUID; anything else is a malformed id, not an unknown key.
 * @example apiKeyId.parse('0f8fad5b-d9cb-469f-a165-70867728950e')
 */
export const apiKeyId = uuidArgument('an API key id')
  .describe('API key id, stable across rotation')
  .meta({ example: '0f8fad5b-d9cb-469f-a165-70867728950e' });

/** The EIP-4361 message of a sign-in, as signed; its syntax is the sign-in's own check. */
export const siweMessage = z.string().min(1).max(10_000).describe('the full EIP-4361 message, as signed');

/** The signature of a sign-in; whether it verifies is the sign-in's own check. */
export const siweSignature = z
  .string()
  .min(1)
  .max(10_000)
  .describe('0x-prefixed hex signature (EOA, or EIP-1271 / ERC-6492 contract wallet)');

/**
 * The label of an API key, trimmed: 1 to 64 characters.
 * @example apiKeyName.parse(' backend ') // 'backend'
 */
export const apiKeyName = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .describe('a label for the key, 1 to 64 characters')
  .meta({ example: 'backend' });
