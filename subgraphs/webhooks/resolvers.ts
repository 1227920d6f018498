import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { argumentOptions } from '../../src/arguments/argument-options.js';
import { deliveriesLimit, deliveriesOffset } from '../../src/arguments/webhook-arguments.js';
import type { GraphContext } from '../shared/graph-context.js';
import {
  Webhook,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookFiltersInput,
  WebhookList,
  WebhookResult,
  WebhookTest,
} from './types.js';

@Resolver()
export class WebhooksResolver {
  @Mutation(() => Webhook, {
    description: 'Creates a webhook for the caller’s wallet; a generated secret is shown once',
  })
  async createWebhook(
    @Arg('url', () => String) url: string,
    @Arg('events', () => [String]) events: string[],
    @Arg('filters', () => WebhookFiltersInput, { nullable: true }) filters: WebhookFiltersInput | null,
    @Arg('secret', () => String, { nullable: true }) secret: string | null,
    @Ctx() ctx: GraphContext,
  ): Promise<Webhook> {
    return ctx.app.webhooks.create(await ctx.caller(), { url, events, filters, secret });
  }

  @Query(() => WebhookList, { description: "The caller's webhooks and plan" })
  async webhooks(@Ctx() ctx: GraphContext): Promise<WebhookList> {
    return ctx.app.webhooks.list(await ctx.caller());
  }

  @Query(() => Webhook, { nullable: true, description: 'One of the caller’s webhooks' })
  async webhook(@Arg('id', () => String) id: string, @Ctx() ctx: GraphContext): Promise<Webhook | null> {
    return ctx.app.webhooks.get(await ctx.caller(), id);
  }

  @Mutation(() => Webhook, { nullable: true, description: 'Changes url, events, filters or status (active/paused)' })
  async updateWebhook(
    @Arg('id', () => String) id: string,
    @Arg('url', () => String, { nullable: true }) url: string | null,
    @Arg('events', () => [String], { nullable: true }) events: string[] | null,
    @Arg('filters', () => WebhookFiltersInput, { nullable: true }) filters: WebhookFiltersInput | null,
    @Arg('status', () => String, { nullable: true }) status: string | null,
    @Ctx() ctx: GraphContext,
  ): Promise<Webhook | null> {
    return ctx.app.webhooks.update(await ctx.caller(), id, { url, events, filters, status });
  }

  @Mutation(() => WebhookResult, { nullable: true, description: 'Deletes a webhook; pending deliveries are dropped' })
  async deleteWebhook(@Arg('id', () => String) id: string, @Ctx() ctx: GraphContext): Promise<WebhookResult | null> {
    return ctx.app.webhooks.remove(await ctx.caller(), id);
  }

  @Mutation(() => WebhookTest, { nullable: true, description: 'Queues a ping event to the webhook' })
  async testWebhook(@Arg('id', () => String) id: string, @Ctx() ctx: GraphContext): Promise<WebhookTest | null> {
    return ctx.app.webhooks.test(await ctx.caller(), id);
  }

  @Query(() => WebhookDeliveryList, { nullable: true, description: "A page of the webhook's deliveries" })
  async webhookDeliveries(
    @Arg('id', () => String) id: string,
    @Arg('limit', () => Int, argumentOptions(deliveriesLimit)) limit: number,
    @Arg('offset', () => Int, argumentOptions(deliveriesOffset)) offset: number,
    @Ctx() ctx: GraphContext,
  ): Promise<WebhookDeliveryList | null> {
    return ctx.app.webhooks.deliveries(await ctx.caller(), id, { limit, offset });
  }

  @Mutation(() => WebhookDelivery, { nullable: true, description: 'Sends a delivery again, payload unchanged' })
  async redeliverWebhookDelivery(
    @Arg('id', () => String) id: string,
    @Arg('deliveryId', () => String) deliveryId: string,
    @Ctx() ctx: GraphContext,
  ): Promise<WebhookDelivery | null> {
    return ctx.app.webhooks.redeliver(await ctx.caller(), id, deliveryId);
  }
}
