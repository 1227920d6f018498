import { Arg, Ctx, Int, Query, Resolver } from 'type-graphql';
import { argumentOptions } from '../../src/arguments/argument-options.js';
import {
  defiOffset,
  eventChainFilter,
  eventsLimit,
  eventTypeFilter,
  upcomingDays,
} from '../../src/arguments/defi-arguments.js';
import { type EventType, MAX_UPCOMING_DAYS } from '../../src/arguments/defi-limits.js';
import { parseArgument } from '../../src/arguments/parse-argument.js';
import { CHAINS } from '../../src/config/chains.js';
import { serviceUnavailable } from '../../src/errors/api-error.js';
import type { HackRecord, RaiseRecord, TokenUnlock } from '../../src/sources/defi/defi-records.js';
import type { DefiLlamaProClient } from '../../src/sources/defi/defillama-pro-client.js';
import type { GraphContext } from '../shared/graph-context.js';
import { checkPage } from './paginate.js';
import { ActiveUsers, DefiEvent, DefiEventList, type TokenUnlockEvent, UpcomingEvents } from './types.js';

/**
 * growthepie's keys of the supported chains (docs/api-contract.md#supported-chains). Polygon PoS is not an Ethereum
 * layer 2 and growthepie may not list it.
 */
const GROWTHEPIE_KEYS: Record<string, string> = {
  ethereum: 'ethereum',
  base: 'base',
  arbitrum: 'arbitrum',
  optimism: 'optimism',
  polygon: 'polygon_pos',
};

const DAY_MS = 86_400_000;

/** DefiLlama's pro API, or 503 when DefiLlama is live without a pro key (these endpoints are pro-only). */
function defillamaPro(ctx: GraphContext, what: string): DefiLlamaProClient {
  const pro = ctx.sources.defi.pro;
  if (!pro) throw serviceUnavailable(`${what} come from DefiLlama's pro API: set DEFILLAMA_PRO_API_KEY`);
  return pro;
}

const iso = (unixSeconds: number): string => new Date(unixSeconds * 1000).toISOString();

/** What every event says, whatever its kind: its kind, when, who, how much, where and the report. */
function eventOf(
  type: EventType,
  r: HackRecord | RaiseRecord,
): Pick<DefiEvent, 'type' | 'date' | 'name' | 'amountUsd' | 'chains' | 'source'> {
  return { type, date: iso(r.date), name: r.name, amountUsd: r.amountUsd, chains: r.chains, source: r.source };
}

/** The fields only a raise fills, null on a hack. */
const RAISE_ONLY_FIELDS = { round: null, sector: null, leadInvestors: null, otherInvestors: null, valuationUsd: null };
/** The fields only a hack fills, null on a raise. */
const HACK_ONLY_FIELDS = { classification: null, technique: null, returnedUsd: null, bridgeHack: null };

function fromHack(h: HackRecord): DefiEvent {
  return {
    ...eventOf('hack', h),
    classification: h.classification,
    technique: h.technique,
    returnedUsd: h.returnedUsd,
    bridgeHack: h.bridgeHack,
    ...RAISE_ONLY_FIELDS,
  };
}

function fromRaise(r: RaiseRecord): DefiEvent {
  return {
    ...eventOf('raise', r),
    ...HACK_ONLY_FIELDS,
    round: r.round,
    sector: r.sector,
    leadInvestors: r.leadInvestors,
    otherInvestors: r.otherInvestors,
    valuationUsd: r.valuationUsd,
  };
}

function toUnlockEvent(u: TokenUnlock): TokenUnlockEvent {
  const circulating = u.circulatingSupply !== null && u.circulatingSupply > 0 ? u.circulatingSupply : null;
  const price = circulating !== null && u.mcapUsd !== null ? u.mcapUsd / circulating : null;
  return {
    type: 'unlock',
    date: iso(u.date),
    name: u.name,
    geckoId: u.geckoId,
    tokens: u.tokens,
    percentOfCirculating: circulating === null ? null : Math.round((u.tokens / circulating) * 1e6) / 1e4,
    estimatedValueUsd: price === null ? null : Math.round(u.tokens * price * 100) / 100,
  };
}

@Resolver()
export class DefiEventsResolver {
  @Query(() => ActiveUsers, {
    description: 'Daily and 7-day active addresses of the supported chains (growthepie, counted from each chain)',
  })
  async activeUsers(@Ctx() ctx: GraphContext): Promise<ActiveUsers> {
    const activity = await ctx.sources.defi.growthepie.chainActivity();
    const chains = CHAINS.flatMap((chain) => {
      const measured = activity.get(GROWTHEPIE_KEYS[chain.key] ?? chain.key);
      if (!measured) return [];
      return [
        {
          chain: chain.key,
          chainId: chain.id,
          activeUsers24h: measured.dailyActiveAddresses,
          activeUsers7d: measured.weeklyActiveAddresses,
          date: measured.date,
        },
      ];
    });
    return { chains, source: 'growthepie' };
  }

  @Query(() => DefiEventList, {
    description: 'Recent protocol events, newest first: exploits (hack) and funding rounds (raise), from DefiLlama',
  })
  async defiEvents(
    @Arg('type', () => String, { nullable: true, description: 'hack or raise; both when omitted' }) type: string | null,
    @Arg('chain', () => String, {
      nullable: true,
      description: 'only events on this chain, as DefiLlama names it (any case)',
    })
    chain: string | null,
    @Arg('limit', () => Int, argumentOptions(eventsLimit)) limit: number,
    @Arg('offset', () => Int, argumentOptions(defiOffset)) offset: number,
    @Ctx() ctx: GraphContext,
  ): Promise<DefiEventList> {
    checkPage(limit, offset, eventsLimit);
    const wantedType = parseArgument(eventTypeFilter, 'type', type);
    const wantedChain = parseArgument(eventChainFilter, 'chain', chain)?.toLowerCase() ?? null;
    const wants = (t: EventType): boolean => wantedType === undefined || wantedType === t;
    const pro = defillamaPro(ctx, 'Hacks and raises');
    const [hacks, raises] = await Promise.all([
      wants('hack') ? pro.hacks() : Promise.resolve([]),
      wants('raise') ? pro.raises() : Promise.resolve([]),
    ]);
    const events = [...hacks.map(fromHack), ...raises.map(fromRaise)]
      .filter((e) => wantedChain === null || e.chains.some((c) => c.toLowerCase() === wantedChain))
      // ISO 8601 in UTC sorts as time; ties keep hacks before raises.
      .sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
    return { results: events.slice(offset, offset + limit), total: events.length };
  }

  @Query(() => UpcomingEvents, {
    description: 'Upcoming events: the next scheduled token unlocks (DefiLlama emissions), soonest first',
  })
  async upcomingEvents(
    @Arg('days', () => Int, {
      nullable: true,
      description: `only events within this many days, 1 to ${MAX_UPCOMING_DAYS}`,
    })
    days: number | null,
    @Arg('limit', () => Int, argumentOptions(eventsLimit)) limit: number,
    @Ctx() ctx: GraphContext,
  ): Promise<UpcomingEvents> {
    parseArgument(eventsLimit, 'limit', limit);
    const within = parseArgument(upcomingDays, 'days', days);
    const now = Date.now();
    const until = within === undefined ? null : now + within * DAY_MS;
    const unlocks = (await defillamaPro(ctx, 'Token unlocks').nextUnlocks())
      .filter((u) => u.date * 1000 > now && (until === null || u.date * 1000 <= until))
      .sort((a, b) => a.date - b.date);
    return {
      success: true,
      data: {
        from: new Date(now).toISOString(),
        to: until === null ? null : new Date(until).toISOString(),
        count: unlocks.length,
        unlocks: unlocks.slice(0, limit).map(toUnlockEvent),
      },
    };
  }
}
