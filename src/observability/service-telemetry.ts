import { AccessTallies } from './access-tallies.js';
import { StoreCallTallies } from './store-call-tallies.js';
import { WebhookAttemptTallies } from './webhook-tallies.js';

/**
 * The counts one server keeps for /metrics beyond HTTP, made once at start and handed to the parts that count:
 * the store (calls), access (refusals, x402) and the delivery worker (attempts). Sources count in their health
 * monitors (src/sources/source-health.ts), operations in the HTTP layer (src/observability/observe-operation.ts).
 */
export class ServiceTelemetry {
  readonly storeCalls = new StoreCallTallies();
  readonly access = new AccessTallies();
  readonly webhookAttempts = new WebhookAttemptTallies();
}
