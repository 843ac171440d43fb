import type { BlobReferenceContribution } from '@werkbank/sdk/node';

/**
 * The layers plugin's part in the server's blob sweep (decision 0017): a pmtiles layer keeps the
 * blob of its last built archive. A rebuild or a delete releases the old one (tiles-migration.ts).
 */
export const layerTilesBlobReferences: BlobReferenceContribution = {
  registerBlobReferences: (registry) =>
    registry.add({
      id: 'layers.tile-archives',
      usedOf: async (m, hashes) => {
        const rows = (await m.query(`SELECT DISTINCT tiles_blob FROM layers_layer WHERE tiles_blob = ANY($1)`, [hashes])) as {
          tiles_blob: string;
        }[];
        return rows.map((r) => r.tiles_blob);
      },
    }),
};
