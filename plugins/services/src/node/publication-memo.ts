import { inject, injectable, MessageBus, type Disposable, type WerkbankContext } from '@werkbank/sdk/node';
import { frozenViewOf, PublishedLayers, type Publication } from './published-layers';

/** The Magazine's message after a moment is approved (sent after the commit, to every process). */
const MOMENT_APPROVED_CHANNEL = 'werkbank_moment_approved';
/** How long a resolved publication serves further tile requests of the same caller, by default. */
export const PUBLICATION_MEMO_MS = 500;

/** SERVICES_TILE_MEMO_MS (milliseconds, 0 turns the memo off), else PUBLICATION_MEMO_MS. */
export function publicationMemoMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.SERVICES_TILE_MEMO_MS?.trim();
  const ms = raw ? Number(raw) : NaN;
  return Number.isFinite(ms) && ms >= 0 ? Math.floor(ms) : PUBLICATION_MEMO_MS;
}
const MAX_ENTRIES = 1000;

/**
 * Publications of recent tile requests (decision 0083, "Tiles"): resolving a publication costs
 * several queries, as much as serving a cached tile many times over, so the vector tile service
 * keeps each caller's resolution of a layer for PUBLICATION_MEMO_MS (or SERVICES_TILE_MEMO_MS). Every approval of a moment
 * (in any process, through the message bus) forgets them all, so a new moment is served as soon as
 * the message arrives; other changes of a layer (its piles, access, style) reach tiles within
 * PUBLICATION_MEMO_MS. Previews (`moment=`) and failures are never kept; the API key's realm is
 * checked on every request.
 */
@injectable()
export class PublicationMemo {
  @inject(PublishedLayers) protected readonly published!: PublishedLayers;
  @inject(MessageBus) protected readonly bus!: MessageBus;

  protected readonly entries = new Map<string, { until: number; publication: Promise<Publication> }>();
  protected readonly memoMs = publicationMemoMs();

  /** Listens for approvals until disposed (a startup hook of the services plugin). */
  start(): Disposable {
    return this.bus.subscribe(MOMENT_APPROVED_CHANNEL, () => this.entries.clear());
  }

  /** The publication of layer `name` for this request's caller, as `PublishedLayers.open` resolves it. */
  open(ctx: WerkbankContext, name: string): Promise<Publication> {
    // A frozen view's publication is resolved for each request (its pins are read with the caller's rights).
    if (frozenViewOf(ctx) !== undefined) return this.published.open(ctx, name);
    const user = this.published.caller(ctx);
    const key = `${user?.id ?? '-'}|${name}`;
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.until > now) return hit.publication;
    const publication = this.published.open(ctx, name);
    if (this.memoMs === 0) return publication;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(key, { until: now + this.memoMs, publication });
    publication.catch(() => this.entries.delete(key));
    return publication;
  }
}
