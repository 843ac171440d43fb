import { defaultRepr, type MigrationInterface, type QueryRunner, type Row } from '@werkbank/sdk/node';
import { putContent, textRepr } from './frame-content';
import type { NodePort } from './links';

/**
 * Depot datums in frames (type `depot`) and in node parameters name their depot by address
 * (`/api/v1/depot/3/`), the one form `depot.read`, `depot.store` and the editors take (issue 14
 * item 12). Values the depot path editor stored as `Folder/Depot` get the address of the depot
 * that path names; a path that names no depot, or several, stays (running fails with a message
 * naming it). Without the Magazine there are no depots and nothing to do.
 */
export class SwitchboardDepotAddresses1764500300100 implements MigrationInterface {
  name = 'SwitchboardDepotAddresses1764500300100';

  async up(q: QueryRunner): Promise<void> {
    // The Magazine's view of depot paths (its migration 1764500300000, which runs before this one).
    const [{ present }] = (await q.query(`SELECT to_regclass('magazine_depot_path') IS NOT NULL AS present`)) as {
      present: boolean;
    }[];
    if (!present) return;
    const rows = (await q.query(`SELECT path, address FROM magazine_depot_path`)) as { path: string; address: string }[];
    const addresses = new Map(rows.map((r) => [r.path, r.address]));
    const resolve = (fields: unknown): Record<string, unknown> | undefined => {
      const f = fields as Record<string, unknown> | null;
      const value = f && typeof f === 'object' ? f.value : undefined;
      if (typeof value !== 'string' || value.startsWith('/api/v1/depot/')) return undefined;
      const address = addresses.get(value.trim().replace(/^\/+|\/+$/g, ''));
      return address ? { ...f, value: address } : undefined;
    };
    const frames = (await q.query(
      `SELECT f.id, c.items FROM switchboard_frame f JOIN switchboard_content c ON c.hash = f.content_hash WHERE f.content_type = 'depot'`,
    )) as Row[];
    // A depot datum's text is its value (the type has no repr of its own).
    const repr = {
      datumTypes: { textRepr: (_type: string, fields: Record<string, unknown>) => defaultRepr(fields) },
    } as Parameters<typeof textRepr>[2];
    for (const frame of frames) {
      const items = frame.items as Array<Record<string, unknown>>;
      let changed = false;
      const next = items.map((item) => {
        const resolved = resolve(item);
        if (resolved) changed = true;
        return resolved ?? item;
      });
      if (!changed) continue;
      const hash = await putContent(q.manager, next);
      await q.query(`UPDATE switchboard_frame SET content_hash = $2, text_repr = $3 WHERE id = $1`, [
        frame.id,
        hash,
        textRepr(next, 'depot', repr),
      ]);
    }
    const nodes = (await q.query(`SELECT id, ports FROM switchboard_node WHERE ports @> '[{"content_type": "depot"}]'`)) as Row[];
    for (const node of nodes) {
      const ports = node.ports as NodePort[];
      let changed = false;
      const next = ports.map((p) => {
        const resolved = p.is_input && p.content_type === 'depot' ? resolve(p.default_value) : undefined;
        if (resolved) changed = true;
        return resolved ? { ...p, default_value: resolved } : p;
      });
      if (changed) await q.query(`UPDATE switchboard_node SET ports = $2 WHERE id = $1`, [node.id, JSON.stringify(next)]);
    }
  }

  async down(): Promise<void> {
    // Addresses are what every reader takes; there is nothing to go back to.
  }
}
