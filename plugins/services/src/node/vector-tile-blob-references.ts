import type { BlobReferenceContribution } from '@werkbank/sdk/node';

/** The services' part in the server's blob sweep (decision 0017): a blob is used while a cached vector tile is it. */
export const vectorTileBlobReferences: BlobReferenceContribution = {
  registerBlobReferences: (registry) =>
    registry.add({
      id: 'services.vector-tiles',
      usedOf: async (m, hashes) => {
        const rows = (await m.query(`SELECT DISTINCT blob FROM services_vector_tile WHERE blob = ANY($1)`, [hashes])) as {
          blob: string;
        }[];
        return rows.map((r) => r.blob);
      },
    }),
};
