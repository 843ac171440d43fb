import { createHash, randomBytes } from 'node:crypto';
import { ComponentGate, Database, inject, injectable, Logger, type DataSource, type WerkbankContext } from '@werkbank/sdk/node';
import { ANALYTICS_COMPONENT, daysBefore, utcDay } from '../common/view-analytics';
import type { ViewVisits } from '../common/views-api';

/** Hex digits of a visitor hash that are stored (64 bits: no collisions among a view's daily visitors). */
export const VISITOR_HASH_LENGTH = 16;

/**
 * One pageview counted per call, one visitor per salted hash and day (decision 0089), in a single
 * statement: the hash is inserted unless the day already has it, and the day's row of the view
 * gains a pageview and, for a new hash, a visitor.
 */
const RECORD = `
  WITH seen AS (
    INSERT INTO views_visitor (view_id, day, hash) VALUES ($1, $2::date, $3)
    ON CONFLICT DO NOTHING RETURNING 1
  )
  INSERT INTO views_visit_day (view_id, day, pageviews, visitors) VALUES ($1, $2::date, 1, (SELECT count(*) FROM seen))
  ON CONFLICT (view_id, day) DO UPDATE
    SET pageviews = views_visit_day.pageviews + 1, visitors = views_visit_day.visitors + EXCLUDED.visitors`;

/**
 * The default ViewVisits, privacy-friendly as Plausible and GoatCounter count: no cookie, and no
 * address or User-Agent stored. A visitor is SHA-256 of the day's salt, the view, the client's
 * address and its User-Agent, truncated; the salt is random per UTC day and kept in the database,
 * so every process of an installation counts alike. Salts and hashes are kept for today and
 * yesterday only (a process whose clock lags at midnight still finds its day's salt); without them
 * a hash cannot be traced back to an address.
 */
@injectable()
export class ViewVisitsService implements ViewVisits {
  @inject(Database) protected readonly db!: DataSource;
  @inject(ComponentGate) protected readonly gate!: ComponentGate;
  @inject(Logger) protected readonly logger!: Logger;
  /** The salt of the day this process last counted on; a rejected one is asked for again. */
  protected current?: { day: string; salt: Promise<string> };

  async record(ctx: WerkbankContext, viewId: number): Promise<void> {
    if (!this.gate.isEnabled(ANALYTICS_COMPONENT)) return;
    try {
      const day = utcDay(this.now());
      const hash = this.visitor(await this.salt(day), viewId, ctx.ip, ctx.get('user-agent'));
      await this.db.query(RECORD, [viewId, day, hash]);
    } catch (e) {
      this.logger.log(`views: pageview of view ${viewId} not counted: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  /** The current time; the day a pageview counts on is its UTC date. */
  protected now(): Date {
    return new Date();
  }

  protected visitor(salt: string, viewId: number, ip: string, userAgent: string): string {
    return createHash('sha256').update([salt, viewId, ip, userAgent].join('\n')).digest('hex').slice(0, VISITOR_HASH_LENGTH);
  }

  protected salt(day: string): Promise<string> {
    if (this.current?.day !== day) {
      const salt = this.rollOver(day);
      this.current = { day, salt };
      salt.catch(() => {
        if (this.current?.salt === salt) this.current = undefined;
      });
    }
    return this.current!.salt;
  }

  /**
   * The salt of `day`, made by the first process to ask for it; salts and visitor hashes of the days
   * before yesterday are deleted then (the daily counts stay).
   */
  protected async rollOver(day: string): Promise<string> {
    await this.db.query(`INSERT INTO views_visit_salt (day, salt) VALUES ($1::date, $2) ON CONFLICT (day) DO NOTHING`, [
      day,
      randomBytes(32).toString('hex'),
    ]);
    const [row] = (await this.db.query(`SELECT salt FROM views_visit_salt WHERE day = $1::date`, [day])) as { salt: string }[];
    const yesterday = daysBefore(day, 1);
    await this.db.query(`DELETE FROM views_visit_salt WHERE day < $1::date`, [yesterday]);
    await this.db.query(`DELETE FROM views_visitor WHERE day < $1::date`, [yesterday]);
    return row.salt;
  }
}
