import { Field, Float, InputType, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: 'A price threshold: an alert when the price crosses above or below it' })
export class PriceThreshold {
  @Field(() => String, { description: 'token symbol, e.g. ETH' }) symbol!: string;
  @Field(() => Float, { nullable: true, description: 'alert when the price rises to or above this (USD)' })
  above!: number | null;
  @Field(() => Float, { nullable: true, description: 'alert when the price falls to or below this (USD)' })
  below!: number | null;
}

@ObjectType({ description: 'Which events of the subscribed types a webhook receives' })
export class WebhookFilters {
  @Field(() => [String], { nullable: true, description: 'ENS names or *.parent patterns (ens.* events)' })
  names!: string[] | null;
  @Field(() => [String], { nullable: true, description: 'watched addresses, lower-case (wallet.*, ens.*)' })
  addresses!: string[] | null;
  @Field(() => [Int], { nullable: true, description: 'watched Farcaster FIDs (farcaster.*)' })
  fids!: number[] | null;
  @Field(() => [PriceThreshold], { nullable: true, description: 'price thresholds (price.alert)' })
  prices!: PriceThreshold[] | null;
}

@ObjectType({ description: 'A webhook: where events of the chosen types are POSTed, signed' })
export class Webhook {
  @Field(() => String) id!: string;
  @Field(() => String) url!: string;
  @Field(() => [String], { description: 'subscribed event types' }) events!: string[];
  @Field(() => WebhookFilters) filters!: WebhookFilters;
  @Field(() => String, { description: 'active, paused (by its owner) or disabled (failing for 3 days)' })
  status!: string;
  @Field(() => String, { description: 'ISO 8601' }) createdAt!: string;
  @Field(() => String, { description: 'ISO 8601' }) updatedAt!: string;
  @Field(() => String, { nullable: true, description: 'why the service disabled it' }) disabledReason!: string | null;
  @Field(() => String, { nullable: true, description: 'since when every attempt failed (ISO 8601)' })
  failingSince!: string | null;
  @Field(() => String, {
    nullable: true,
    description: 'the signing secret, only in the answer that generated it (whsec_…)',
  })
  secret!: string | null;
}

@ObjectType({ description: "The wallet's webhook plan and what it used" })
export class WebhookPlan {
  @Field(() => String, { description: 'free, pro or enterprise' }) name!: string;
  @Field(() => Int, { description: 'webhooks the wallet holds' }) webhooks!: number;
  @Field(() => Int, { nullable: true, description: 'webhooks the plan allows; null: unlimited' })
  webhookLimit!: number | null;
  @Field(() => String, { description: 'the month counted, UTC (2025-03)' }) month!: string;
  @Field(() => Int, { description: 'events counted this month' }) eventsThisMonth!: number;
  @Field(() => Int, { nullable: true, description: 'events a month the plan allows; null: unlimited' })
  eventLimit!: number | null;
}

@ObjectType({ description: "The wallet's webhooks and its plan" })
export class WebhookList {
  @Field(() => [Webhook]) webhooks!: Webhook[];
  @Field(() => Int) count!: number;
  @Field(() => WebhookPlan) plan!: WebhookPlan;
}

@ObjectType({ description: 'One event on its way to one webhook' })
export class WebhookDelivery {
  @Field(() => String) id!: string;
  @Field(() => String) webhookId!: string;
  @Field(() => String, { description: 'the event id (webhook-id header), the same on every attempt' })
  eventId!: string;
  @Field(() => String) eventType!: string;
  @Field(() => String, { description: 'pending, delivered, failed, or dropped (over the plan)' }) status!: string;
  @Field(() => Int) attempts!: number;
  @Field(() => Int, { nullable: true, description: 'HTTP status of the last attempt' }) responseCode!: number | null;
  @Field(() => Int, { nullable: true, description: 'duration of the last attempt, ms' }) latencyMs!: number | null;
  @Field(() => String, { nullable: true }) error!: string | null;
  @Field(() => String) createdAt!: string;
  @Field(() => String, { nullable: true }) lastAttemptAt!: string | null;
  @Field(() => String, { nullable: true }) nextAttemptAt!: string | null;
  @Field(() => String, { nullable: true }) deliveredAt!: string | null;
}

@ObjectType({ description: "A page of a webhook's deliveries, newest first" })
export class WebhookDeliveryList {
  @Field(() => String) webhookId!: string;
  @Field(() => [WebhookDelivery]) deliveries!: WebhookDelivery[];
  @Field(() => Int) limit!: number;
  @Field(() => Int) offset!: number;
  @Field(() => Int, { nullable: true, description: 'offset of the next page; null on the last' })
  nextOffset!: number | null;
}

@ObjectType({ description: 'Outcome of a webhook change' })
export class WebhookResult {
  @Field(() => Boolean) success!: boolean;
  @Field(() => String) message!: string;
}

@ObjectType({ description: 'A ping queued to a webhook' })
export class WebhookTest {
  @Field(() => Boolean) success!: boolean;
  @Field(() => String) message!: string;
  @Field(() => WebhookDelivery) delivery!: WebhookDelivery;
}

@InputType({ description: 'A price threshold: exactly one of above or below' })
export class PriceThresholdInput {
  @Field(() => String) symbol!: string;
  @Field(() => Float, { nullable: true }) above?: number | null;
  @Field(() => Float, { nullable: true }) below?: number | null;
}

@InputType({ description: 'Which events of the subscribed types a webhook receives' })
export class WebhookFiltersInput {
  @Field(() => [String], { nullable: true }) names?: string[] | null;
  @Field(() => [String], { nullable: true }) addresses?: string[] | null;
  @Field(() => [Int], { nullable: true }) fids?: number[] | null;
  @Field(() => [PriceThresholdInput], { nullable: true }) prices?: PriceThresholdInput[] | null;
}
