import type { BlobReferenceContribution } from '@werkbank/sdk/node';

/**
 * The switchboards' part in the server's blob sweep (decision 0017): a blob is used while stored
 * frame content holds a file datum of it — the content of a frame, of a node run's inputs or
 * outputs (kept for replays), or content stored within the last hour (sweepContent). The entries
 * come from a trigger on new content (content-blob-migration.ts).
 */
export const switchboardBlobReferences: BlobReferenceContribution = {
  registerBlobReferences: (registry) =>
    registry.add({
      id: 'switchboards.frame-content',
      usedOf: async (m, hashes) => {
        const rows = (await m.query(`SELECT DISTINCT blob FROM switchboard_content_blob WHERE blob = ANY($1)`, [hashes])) as {
          blob: string;
        }[];
        return rows.map((r) => r.blob);
      },
    }),
};
