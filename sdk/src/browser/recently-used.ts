import { useMemo } from 'react';
import { ConfigStore, NavigationStore, useService } from '@werkbank/kernel/browser';

/** One entry of a most-recently-used list: enough to show and open it without a call. */
export interface RecentEntry {
  id: number;
  name: string;
}

/**
 * A most-recently-used list (spec 000 §9: 2 switchboards, 4 depots, 2 views), newest first, kept
 * per user in the navigation state under `key`. Keys ending in `_mru` survive reloads.
 */
export class RecentlyUsedList {
  constructor(
    private readonly nav: NavigationStore,
    private readonly config: ConfigStore,
    readonly key: string,
    readonly limit: number,
  ) {}

  private get user(): string {
    return this.config.config.auth.user ?? 'anonymous';
  }

  private get byUser(): Record<string, RecentEntry[]> {
    return this.nav.get<Record<string, RecentEntry[]>>(this.key, {});
  }

  /** The user's entries, newest first, at most `limit`. */
  get entries(): RecentEntry[] {
    return (this.byUser[this.user] ?? []).slice(0, this.limit);
  }

  /** Puts `entry` first (replacing an older entry with its id) and keeps `limit` entries. */
  touch(entry: RecentEntry): void {
    const next = [{ id: entry.id, name: entry.name }, ...this.entries.filter((e) => e.id !== entry.id)].slice(0, this.limit);
    this.nav.set(this.key, { ...this.byUser, [this.user]: next });
  }

  /** Drops the entry with `id` (e.g. after the object was deleted). */
  remove(id: number): void {
    if (!this.entries.some((e) => e.id === id)) return;
    this.nav.set(this.key, { ...this.byUser, [this.user]: this.entries.filter((e) => e.id !== id) });
  }
}

/** The signed-in user's most-recently-used list under `key` (observable through the navigation store). */
export function useRecentlyUsed(key: string, limit: number): RecentlyUsedList {
  const nav = useService(NavigationStore);
  const config = useService(ConfigStore);
  return useMemo(() => new RecentlyUsedList(nav, config, key, limit), [nav, config, key, limit]);
}
