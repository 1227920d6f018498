import type { z } from 'zod';
import type { CallerIdentity } from '../../subgraphs/shared/account-services.js';
import { parseArgument } from '../arguments/parse-argument.js';
import { webhookId } from '../arguments/webhook-arguments.js';
import { ApiError } from '../errors/api-error.js';
import type { Store } from '../store/store.js';
import type { WebhookRecord } from '../store/webhook-store.js';

/** A webhook id parsed with `webhookId`: `own` takes only these, so a call parses its id once, before anything else. */
const parsedWebhookId = webhookId.brand<'ParsedWebhookId'>();
export type ParsedWebhookId = z.output<typeof parsedWebhookId>;

/**
 * The `id` argument, parsed first: REST checks the path before the query and the body, so a call bad in both names
 * the id on every surface.
 */
export const parseWebhookId = (id: string): ParsedWebhookId => parseArgument(parsedWebhookId, 'id', id);

/** Webhooks belong to a wallet: a SIWE session or one of the wallet's API keys must call. */
export function requireWallet(caller: CallerIdentity): string {
  if (!caller.wallet || caller.mode === 'anonymous') {
    throw new ApiError('UNAUTHORIZED', 'webhooks need a SIWE session (Authorization: Bearer) or an API key');
  }
  return caller.wallet.toLowerCase();
}

/**
 * The caller's webhook with this id, or null. Another wallet's webhook is as absent as a deleted one: ids reveal
 * nothing. The id is parsed before the caller is asked for, as REST refuses a malformed id before it asks who calls.
 * @example const webhook = await ownWebhook(store, caller, parseWebhookId(id))
 */
export async function ownWebhook(
  store: Store,
  caller: CallerIdentity,
  id: ParsedWebhookId,
): Promise<WebhookRecord | null> {
  const wallet = requireWallet(caller);
  const webhook = await store.getWebhook(id);
  return webhook && webhook.wallet === wallet ? webhook : null;
}
