import { createHmac, randomBytes } from 'node:crypto';

/** A generated secret in the Standard Webhooks form: `whsec_` and 32 random bytes in base64. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * The key Standard Webhooks signatures use: the base64 bytes after `whsec_` for secrets in that form (as the
 * `standardwebhooks` library reads them), else the secret's own UTF-8 bytes.
 */
function standardKey(secret: string): Buffer {
  const encoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : undefined;
  if (encoded !== undefined && /^[A-Za-z0-9+/]+={0,2}$/.test(encoded) && encoded.length % 4 === 0) {
    return Buffer.from(encoded, 'base64');
  }
  return Buffer.from(secret, 'utf8');
}

/**
 * The signature headers of one attempt: the contract's `x-webhook-signature` (docs/api-contract.md#events)
 * (HMAC-SHA-256 hex of the raw body, keyed with
 * the secret as given) and Standard Webhooks' `webhook-id`, `webhook-timestamp` and `webhook-signature`
 * (`v1,` + base64 HMAC-SHA-256 of `id.timestamp.body`).
 * @example signDelivery({ secret, messageId: 'evt_…', body, timestampSeconds: 1741953600 })
 */
export function signDelivery(p: {
  secret: string;
  messageId: string;
  body: string;
  timestampSeconds: number;
}): Record<string, string> {
  const plain = createHmac('sha256', p.secret).update(p.body).digest('hex');
  const standard = createHmac('sha256', standardKey(p.secret))
    .update(`${p.messageId}.${p.timestampSeconds}.${p.body}`)
    .digest('base64');
  return {
    'x-webhook-signature': plain,
    'webhook-id': p.messageId,
    'webhook-timestamp': String(p.timestampSeconds),
    'webhook-signature': `v1,${standard}`,
  };
}
