import { AccessTallies } from './access-tallies.js';
import { LiveTallies } from './live-tallies.js';
import { StoreCallTallies } from './store-call-tallies.js';
import { WebhookAttemptTallies } from './webhook-tallies.js';

/**
 * The counts one server keeps for /metrics beyond HTTP, made once at start and handed to the parts that count:
 * the store (calls), access (refusals, x402), the delivery worker (attempts) and the live hub (subscriptions). Sources count in their health
 * monitors (src/sources/source-health.ts), operations in the HTTP layer (src/observability/observe-operation.ts).
 */
export class ServiceTelemetry {
  readonly storeCalls = new StoreCallTallies();
  readonly access = new AccessTallies();
  readonly webhookAttempts = new WebhookAttemptTallies();
  readonly live = new LiveTallies();
}
