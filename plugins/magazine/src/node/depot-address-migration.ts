import type { MigrationInterface, QueryRunner } from '@werkbank/sdk/node';

/**
 * Each depot path (`Folder/Sub/Depot`, a depot at the root by its name alone) that names exactly one
 * depot, with that depot's address: the view `magazine_depot_path (path, address)`, which other
 * plugins read to resolve paths they stored (the switchboards plugin's depot-address migration).
 */
const DEPOT_PATHS_SQL = `
  WITH RECURSIVE folder_path(id, path) AS (
    SELECT id, name::text FROM magazine_depotfolder WHERE parent_id IS NULL
    UNION ALL
    SELECT f.id, p.path || '/' || f.name FROM magazine_depotfolder f JOIN folder_path p ON f.parent_id = p.id
  ),
  depot_path AS (
    SELECT d.id, CASE WHEN d.folder_id IS NULL THEN d.name::text ELSE fp.path || '/' || d.name END AS path
      FROM magazine_depot d LEFT JOIN folder_path fp ON fp.id = d.folder_id
  )
  SELECT path, '/api/v1/depot/' || min(id) || '/' AS address FROM depot_path
   WHERE path IS NOT NULL GROUP BY path HAVING count(*) = 1`;

/**
 * A depot datum (type `depot`) names its depot by address (`/api/v1/depot/3/`), the one form every
 * function and editor takes (issue 14 item 12). Datums stored with the depot path editor's
 * `Folder/Depot` form get the address of the depot that path names; a path that names no depot, or
 * several, stays as it is (reading it fails with a message naming it).
 */
export class MagazineDepotAddresses1764500300000 implements MigrationInterface {
  name = 'MagazineDepotAddresses1764500300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE OR REPLACE VIEW magazine_depot_path AS ${DEPOT_PATHS_SQL}`);
    await q.query(`
      UPDATE magazine_datum_version v
         SET data = jsonb_set(v.data, '{value}', to_jsonb(p.address)), repr = p.address
        FROM magazine_depot d, magazine_depot_path p
       WHERE d.id = v.depot_id AND d.content_type = 'depot' AND jsonb_typeof(v.data->'value') = 'string'
         AND v.data->>'value' NOT LIKE '/api/v1/depot/%' AND btrim(btrim(v.data->>'value'), '/') = p.path`);
  }

  async down(q: QueryRunner): Promise<void> {
    // Addresses are what every reader takes; only the view goes.
    await q.query(`DROP VIEW IF EXISTS magazine_depot_path`);
  }
}
