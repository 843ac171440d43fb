import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * API call statistics (issue 19, decision 0044): DDSketch bucket counts per month, path template,
 * status code and user (0: no signed-in user), added to by every process's flush. No reference to
 * werkbank_user: the rows are counters, written without a lookup; a deleted user's rows stay.
 */
export class ApiStats1765100000000 implements MigrationInterface {
  name = 'ApiStats1765100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE werkbank_api_call_bucket (
        month text NOT NULL,
        path text NOT NULL,
        status_code integer NOT NULL,
        user_id integer NOT NULL,
        bucket integer NOT NULL,
        count bigint NOT NULL,
        PRIMARY KEY (user_id, month, path, status_code, bucket)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE werkbank_api_call_bucket`);
  }
}
