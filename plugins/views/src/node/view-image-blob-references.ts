import type { BlobReferenceContribution } from '@werkbank/sdk/node';

/** The views' part in the server's blob sweep (decision 0017): a blob is used while it is a view's uploaded preview image. */
export const viewImageBlobReferences: BlobReferenceContribution = {
  registerBlobReferences: (registry) =>
    registry.add({
      id: 'views.images',
      usedOf: async (m, hashes) => {
        const rows = (await m.query(`SELECT DISTINCT image_blob FROM views_view WHERE image_blob = ANY($1)`, [hashes])) as {
          image_blob: string;
        }[];
        return rows.map((r) => r.image_blob);
      },
    }),
};
