import type { BlobReferenceContribution } from '@werkbank/sdk/node';

/** The layers' part in the server's blob sweep (decision 0017): a blob is used while a layer's legend is it. */
export const layersBlobReferences: BlobReferenceContribution = {
  registerBlobReferences: (registry) =>
    registry.add({
      id: 'layers.legends',
      usedOf: async (m, hashes) => {
        const rows = (await m.query(`SELECT DISTINCT legend_blob FROM layers_layer WHERE legend_blob = ANY($1)`, [hashes])) as {
          legend_blob: string;
        }[];
        return rows.map((r) => r.legend_blob);
      },
    }),
};
