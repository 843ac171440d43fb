import type { MigrationInterface, QueryRunner } from '@werkbank/sdk/node';

/**
 * Frames' `storage_context` was stored as a JSON string inside the jsonb column (encoded twice),
 * and a dialog that saved it again spread that string into an object of characters
 * (`{"0":"{","1":"\"",…,"kind":"deferred"}`; issue 14 item 11). This turns stored strings back
 * into the object they hold (anything else becomes null, the default storage) and drops the
 * character keys such a save left.
 */
export class SwitchboardFrameStorageContext1764500100000 implements MigrationInterface {
  name = 'SwitchboardFrameStorageContext1764500100000';

  async up(q: QueryRunner): Promise<void> {
    // Each pass unwraps one level of encoding; a corrupted save may have wrapped it more than once.
    for (let pass = 0; pass < 5; pass++) {
      await q.query(`
        UPDATE switchboard_frame
           SET storage_context = CASE WHEN jsonb_typeof((storage_context #>> '{}')::jsonb) IN ('object', 'string')
                                      THEN (storage_context #>> '{}')::jsonb END
         WHERE jsonb_typeof(storage_context) = 'string'`);
    }
    await q.query(`UPDATE switchboard_frame SET storage_context = NULL WHERE jsonb_typeof(storage_context) = 'string'`);
    await q.query(`
      UPDATE switchboard_frame f
         SET storage_context = f.storage_context - ARRAY(SELECT k FROM jsonb_object_keys(f.storage_context) k WHERE k ~ '^[0-9]+$')
       WHERE jsonb_typeof(f.storage_context) = 'object' AND f.storage_context ? '0'`);
  }

  async down(): Promise<void> {
    // Nothing to undo: the repaired values are what the column should always have held.
  }
}
