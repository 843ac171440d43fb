import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import {
  KNOWN_COMPONENTS,
  StaticComponentGate,
  type LicenceDocument,
  type LicencePayload,
  type LicenceStatus,
} from '@werkbank/kernel';
import { generateLicenceKeyPair, signLicence, verifyLicence } from '@werkbank/kernel/node';

export interface ComponentGrant {
  component: string;
  enabled: boolean;
  licence: { id: string; licensee: string; expires: string; development: boolean } | null;
}

export interface LicenceServiceOptions {
  /** Folder for the development key pair and trusted keys; undefined keeps them in memory. */
  dir?: string;
  /** Extra trusted public keys (PEM text). */
  trustedKeys?: string[];
  /** Create the development licence on first start. */
  developmentLicence: boolean;
  log: (msg: string) => void;
}

/**
 * The component gate's authority (DESIGN §2). Licences are stored in the database; the switches
 * are the union of the components of every valid licence. Licences with a bad signature, an
 * untrusted key or a past expiry enable nothing, and the log says why.
 */
export class LicenceService {
  readonly gate = new StaticComponentGate();
  private statuses: LicenceStatus[] = [];
  private timer: ReturnType<typeof setInterval> | undefined;
  private trusted: string[] = [];

  constructor(
    private readonly db: DataSource,
    private readonly options: LicenceServiceOptions,
  ) {}

  async start(): Promise<void> {
    this.trusted = [...(this.options.trustedKeys ?? [])];
    const dir = this.options.dir;
    if (dir) {
      const trustedDir = join(dir, 'trusted');
      if (existsSync(trustedDir)) {
        for (const f of readdirSync(trustedDir)
          .filter((f) => f.endsWith('.pem'))
          .sort()) {
          this.trusted.push(readFileSync(join(trustedDir, f), 'utf8'));
        }
      }
    }
    const [{ n }] = (await this.db.query(`SELECT count(*)::int AS n FROM werkbank_licence`)) as { n: number }[];
    if (n === 0 && this.options.developmentLicence) await this.createDevelopmentLicence();
    await this.refresh();
    // A licence that expires while the server runs switches its components off within a minute.
    this.timer = setInterval(() => {
      if (this.statuses.some((s) => s.state === 'valid' && new Date(s.payload!.expires).getTime() <= Date.now())) {
        this.refresh().catch((e: Error) => this.options.log(`Licence check failed: ${e.message}`));
      }
    }, 60_000);
    this.timer.unref();
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** First start: a local key pair and a licence enabling every component for a year. */
  private async createDevelopmentLicence(): Promise<void> {
    const keys = generateLicenceKeyPair();
    if (this.options.dir) {
      mkdirSync(join(this.options.dir, 'trusted'), { recursive: true });
      writeFileSync(join(this.options.dir, 'trusted', `development-${keys.keyId}.pem`), keys.publicKeyPem);
    }
    this.trusted.push(keys.publicKeyPem);
    const now = new Date();
    const payload: LicencePayload = {
      id: `development-${keys.keyId}`,
      licensee: 'Local development',
      components: ['*'],
      issued: now.toISOString(),
      expires: new Date(now.getTime() + 365 * 24 * 3600 * 1000).toISOString(),
      development: true,
    };
    await this.db.query(`INSERT INTO werkbank_licence (document) VALUES ($1)`, [
      JSON.stringify(signLicence(payload, keys.privateKeyPem)),
    ]);
    this.options.log('Created a local development licence that enables every component (marked as such on the Apps screen)');
  }

  trustKey(publicKeyPem: string): void {
    this.trusted.push(publicKeyPem);
  }

  /** Re-reads the installed licences and recomputes the switches. */
  async refresh(): Promise<void> {
    const rows = (await this.db.query(`SELECT document FROM werkbank_licence ORDER BY id`)) as { document: LicenceDocument }[];
    this.statuses = rows.map((r) => verifyLicence(r.document, this.trusted));
    for (const s of this.statuses) {
      if (s.state !== 'valid') this.options.log(`Licence not in force (${s.state}): ${s.reason}`);
    }
    const switches: Record<string, boolean> = Object.fromEntries(KNOWN_COMPONENTS.map((c) => [c, false]));
    for (const g of this.grants()) switches[g.component] = g.enabled;
    this.gate.update(switches);
  }

  /** Verifies and installs a licence; returns its status (only a valid licence is stored). */
  async install(doc: unknown, userId: number): Promise<LicenceStatus> {
    const status = verifyLicence(doc, this.trusted);
    if (status.state !== 'valid') {
      this.options.log(`Refused licence (${status.state}): ${status.reason}`);
      return status;
    }
    await this.db.query(`INSERT INTO werkbank_licence (document, installed_by) VALUES ($1, $2)`, [JSON.stringify(doc), userId]);
    await this.refresh();
    return status;
  }

  /** Per component: enabled or not, by which licence and until when (the latest expiry wins). */
  grants(): ComponentGrant[] {
    const names = new Set<string>(KNOWN_COMPONENTS);
    for (const s of this.statuses) for (const c of s.payload?.components ?? []) if (c !== '*') names.add(c);
    return [...names].map((component) => {
      const valid = this.statuses
        .filter((s) => s.state === 'valid' && (s.payload!.components.includes('*') || s.payload!.components.includes(component)))
        .sort((a, b) => b.payload!.expires.localeCompare(a.payload!.expires));
      const p = valid[0]?.payload;
      return {
        component,
        enabled: !!p,
        licence: p ? { id: p.id, licensee: p.licensee, expires: p.expires, development: !!p.development } : null,
      };
    });
  }

  /** The licence in force with the latest expiry, for /api/v2/backend/config. */
  summary(): { state: string; development: boolean; expires: string | null; licensee: string | null } {
    const valid = this.statuses
      .filter((s) => s.state === 'valid')
      .sort((a, b) => b.payload!.expires.localeCompare(a.payload!.expires));
    const p = valid[0]?.payload;
    if (!p) return { state: this.statuses[0]?.state ?? 'none', development: false, expires: null, licensee: null };
    return { state: 'valid', development: !!p.development, expires: p.expires, licensee: p.licensee };
  }

  statusList(): LicenceStatus[] {
    return this.statuses;
  }
}
