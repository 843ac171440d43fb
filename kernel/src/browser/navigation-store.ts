import { makeAutoObservable } from 'mobx';
import { token } from '../common/index';

/** spec 000 §9: the navigation keys kept across reloads. */
export const PERSISTED_NAVIGATION_KEYS = [
  'switchboard_folder',
  'switchboard_filter',
  'switchboard_presentation',
  'view_filter',
  'view_presentation',
  'layer_filter',
  'layer_presentation',
  'active_tags',
  'pinned_tags',
  'show_system_tags',
] as const;

const STORAGE_KEY = 'werkbank.navigation';

export const NavigationStore = token<NavigationStore>('NavigationStore');
/**
 * Navigation state (spec 000 §3): filters, queries, presentations, tags, focus, last depot path.
 * Kept across reloads: the keys of spec 000 §9 and every key ending in `_presentation`, `_filter`
 * or `_mru` (the most-recently-used lists of spec 000 §9).
 */
export interface NavigationStore {
  get<T>(key: string, fallback: T): T;
  set(key: string, value: unknown): void;
}

export class PersistedNavigationStore implements NavigationStore {
  values: Record<string, unknown> = {};

  constructor(private readonly storage: Storage | undefined = typeof localStorage !== 'undefined' ? localStorage : undefined) {
    try {
      this.values = JSON.parse(this.storage?.getItem(STORAGE_KEY) ?? '{}') as Record<string, unknown>;
    } catch {
      this.values = {};
    }
    makeAutoObservable<PersistedNavigationStore, 'storage'>(this, { storage: false });
  }

  get<T>(key: string, fallback: T): T {
    return key in this.values ? (this.values[key] as T) : fallback;
  }

  set(key: string, value: unknown): void {
    this.values = { ...this.values, [key]: value };
    const persisted = Object.fromEntries(
      Object.entries(this.values).filter(
        ([k]) =>
          (PERSISTED_NAVIGATION_KEYS as readonly string[]).includes(k) ||
          k.endsWith('_presentation') ||
          k.endsWith('_filter') ||
          k.endsWith('_mru'),
      ),
    );
    this.storage?.setItem(STORAGE_KEY, JSON.stringify(persisted));
  }
}
