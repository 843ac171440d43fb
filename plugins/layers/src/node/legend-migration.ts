import { blobColumnTriggers, type MigrationInterface, type QueryRunner } from '@werkbank/sdk/node';

/** The legend_blob column's blob is released when it changes or the row goes. */
const LAYERS_LEGEND_TRIGGERS = blobColumnTriggers('layers_layer', 'legend_blob', 'layers_legend');

/**
 * The uploaded legend of a layer (decision 0063): its blob's sha256 and size. When a layer lets go
 * of a legend blob (replaced, removed, or the layer deleted) a trigger releases it to the server's
 * blob sweep (decision 0017); legend-blob-references.ts answers which blobs layers still use.
 */
export class LayersLegend1796200000000 implements MigrationInterface {
  name = 'LayersLegend1796200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE layers_layer ADD COLUMN legend_blob varchar(64) NULL, ADD COLUMN legend_size integer NOT NULL DEFAULT 0`,
    );
    await q.query(`CREATE INDEX layers_layer_legend_blob ON layers_layer (legend_blob) WHERE legend_blob IS NOT NULL`);
    for (const sql of LAYERS_LEGEND_TRIGGERS.up) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const sql of LAYERS_LEGEND_TRIGGERS.down) await q.query(sql);
    await q.query(`ALTER TABLE layers_layer DROP COLUMN legend_blob, DROP COLUMN legend_size`);
  }
}
