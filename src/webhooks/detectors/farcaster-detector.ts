import type { WebhookFilters } from '../../arguments/webhook-body.js';
import type { FarcasterSources } from '../../sources/farcaster/farcaster-sources.js';
import type { Store } from '../../store/store.js';
import { eventId } from '../event-id.js';
import type { Watcher } from '../event-matching.js';
import type { PublishEvents } from '../event-publisher.js';
import type { DetectedEvent } from '../event-types.js';
import type { EventDetector } from '../start-webhooks.js';

/** Newest casts and followers read per watched FID and poll. */
const PAGE = 50;
/** Follower FIDs a cursor remembers (the newest first). */
const REMEMBERED_FOLLOWERS = 1000;

/**
 * `farcaster.cast` and `farcaster.follow` for the FIDs webhooks watch, by polling the Farcaster source (Neynar, or
 * the hub) with a cursor per FID in the store: casts newer than the newest one seen, followers not seen before. The
 * first poll of a FID only sets its cursor.
 */
export function farcasterDetector(p: {
  farcaster: Pick<FarcasterSources, 'casts' | 'followers'>;
  store: Store;
  /** Who wants events: the active webhooks and the open subscriptions (RunningWebhooks.wanted); default the webhooks. */
  wanted?: () => Promise<readonly Watcher[]>;
  publish: PublishEvents;
  intervalMs: number;
}): EventDetector {
  const wanted = p.wanted ?? (() => p.store.listActiveWebhooks());
  return {
    name: 'farcaster',
    intervalMs: p.intervalMs,
    async step() {
      const webhooks = await wanted();
      const watching = (type: string) => [
        ...new Set(
          webhooks.filter((w) => w.events.includes(type)).flatMap((w) => (w.filters as WebhookFilters).fids ?? []),
        ),
      ];
      for (const fid of watching('farcaster.cast')) {
        const key = `farcaster:casts:${fid}`;
        const since = await p.store.getCursor(key);
        const casts = (await p.farcaster.casts(fid, PAGE)).items.sort((a, b) => a.timestamp.localeCompare(b.timestamp));
        const newest = casts.at(-1)?.timestamp ?? since ?? '';
        const fresh = since === null ? [] : casts.filter((c) => c.timestamp > since);
        const events: DetectedEvent[] = fresh.map((c) => ({
          id: eventId('farcaster.cast', fid, c.hash),
          type: 'farcaster.cast',
          timestamp: Date.parse(c.timestamp),
          data: { fid, hash: c.hash, text: c.text, timestamp: c.timestamp },
        }));
        await p.publish(events, { [key]: newest });
      }
      for (const fid of watching('farcaster.follow')) {
        const key = `farcaster:followers:${fid}`;
        const cursor = await p.store.getCursor(key);
        const seen = new Set<number>(cursor === null ? [] : (JSON.parse(cursor) as number[]));
        const followers = (await p.farcaster.followers(fid, PAGE)).items;
        const fresh = cursor === null ? [] : followers.filter((f) => !seen.has(f.fid));
        const at = Date.now();
        const events: DetectedEvent[] = fresh.map((f) => ({
          id: eventId('farcaster.follow', fid, f.fid),
          type: 'farcaster.follow',
          timestamp: at,
          data: { fid, follower: f.fid, username: f.profile?.username ?? null },
        }));
        const remembered = [...new Set([...followers.map((f) => f.fid), ...seen])].slice(0, REMEMBERED_FOLLOWERS);
        await p.publish(events, { [key]: JSON.stringify(remembered) });
      }
    },
  };
}
