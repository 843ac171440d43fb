import type { BlobReferenceContribution } from '@werkbank/sdk/node';

/**
 * The Magazine's part in the server's blob sweep (decision 0017): a blob is used while any datum
 * version, of any moment, refers to it. Removed versions release their blob by a trigger
 * (shared-blob-sweep-migration.ts).
 */
export const magazineBlobReferences: BlobReferenceContribution = {
  registerBlobReferences: (registry) =>
    registry.add({
      id: 'magazine.datum-versions',
      usedOf: async (m, hashes) => {
        const rows = (await m.query(`SELECT DISTINCT blob FROM magazine_datum_version WHERE blob = ANY($1)`, [hashes])) as {
          blob: string;
        }[];
        return rows.map((r) => r.blob);
      },
    }),
};
