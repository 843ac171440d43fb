import type { MigrationInterface, QueryRunner } from '@werkbank/sdk/node';

/**
 * Depot metadata was stored twice encoded: the resource layer hands hooks a json field as JSON
 * text, and the depot's hooks encoded it again, so the column held a JSON string and replies
 * carried text instead of an object (found with decision 0063). The hooks no longer encode text;
 * this turns stored strings that hold a JSON object back into that object.
 */
export class MagazineDepotMetadataObjects1796200000001 implements MigrationInterface {
  name = 'MagazineDepotMetadataObjects1796200000001';

  async up(q: QueryRunner): Promise<void> {
    const rows = (await q.query(
      `SELECT id, metadata #>> '{}' AS text FROM magazine_depot WHERE jsonb_typeof(metadata) = 'string'`,
    )) as Array<{ id: number; text: string }>;
    for (const row of rows) {
      let value: unknown;
      try {
        value = JSON.parse(row.text);
      } catch {
        continue;
      }
      if (value && typeof value === 'object' && !Array.isArray(value))
        await q.query(`UPDATE magazine_depot SET metadata = $2::jsonb WHERE id = $1`, [row.id, JSON.stringify(value)]);
    }
  }

  async down(): Promise<void> {
    // The objects stay objects.
  }
}
