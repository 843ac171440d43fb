import type { DataSource } from 'typeorm';

export const SEARCH_TERM = 'harbour';

const ADJECTIVES = ['amber', 'bright', 'calm', 'dusty', 'eastern', 'frozen', 'golden', 'hidden', 'inner', 'jagged'];
const MORE_ADJECTIVES = ['lower', 'misty', 'northern', 'old', 'quiet', 'rocky', 'silent', 'upper', 'western', 'young'];
const NOUNS = ['bridge', 'canal', 'field', 'forest', 'garden', 'hill', 'lake', 'market', 'meadow', 'mill'];
const MORE_NOUNS = ['park', 'quarry', 'river', 'road', 'school', 'station', 'tower', 'valley', 'village', 'wood'];
// Every 25th tag also names a place; one place in ten is the search term: 400 matches in 100,000.
const PLACES = [SEARCH_TERM, 'airport', 'beach', 'border', 'city', 'coast', 'island', 'mountain', 'port', 'shore'];

const sqlArray = (words: string[]) => `(ARRAY[${words.map((w) => `'${w}'`).join(', ')}])`;

/**
 * Fills werkbank_tag with `count` tags in three statements: names like "misty canal 4711" (some
 * "... harbour ...") in an order unrelated to their ids, owned by `userId`; assignments to
 * greetings on half the tags (for the `counts` of each tag) and favourites of `userId` on every
 * seventh. VACUUM ANALYZE afterwards, so the planner knows the table and no autovacuum starts
 * in the middle of a measurement.
 */
export async function seedTags(db: DataSource, userId: number, count: number): Promise<void> {
  const adjectives = sqlArray([...ADJECTIVES, ...MORE_ADJECTIVES]);
  const nouns = sqlArray([...NOUNS, ...MORE_NOUNS]);
  await db.query(
    `INSERT INTO werkbank_tag (name, color, icon, intent, created_by, created)
     SELECT ${adjectives}[1 + abs(hashint4(i) % 20)] || ' ' || ${nouns}[1 + abs((hashint4(i) / 20) % 20)]
              || CASE WHEN i % 25 = 0 THEN ' ' || ${sqlArray(PLACES)}[1 + (i / 25) % 10] ELSE '' END || ' ' || i,
            '#' || lpad(to_hex(abs(hashint4(-i)) % 16777216), 6, '0'),
            CASE WHEN i % 3 = 0 THEN 'star' ELSE 'tag' END,
            CASE WHEN i % 50 = 0 THEN 'system' ELSE 'user' END,
            $1, now() - i * interval '1 minute'
     FROM generate_series(1, $2::int) AS i`,
    [userId, count],
  );
  // 1,000 greetings (the example plugin's taggable kind), each tagged with every hundredth tag
  // from its own offset: every tag of the first page and of the deep page has counts to show.
  await db.query(`INSERT INTO hello_greeting (name, owner_id) SELECT 'greeting ' || g, $1 FROM generate_series(1, 1000) AS g`, [
    userId,
  ]);
  await db.query(
    `INSERT INTO werkbank_tag_assignment (tag_id, kind, object_id)
     SELECT t.id, 'greeting', g.id FROM werkbank_tag t JOIN hello_greeting g ON g.id = 1 + t.id % 1000
     WHERE t.id % 2 = 0`,
  );
  await db.query(
    `INSERT INTO werkbank_favorite (user_id, kind, object_id) SELECT $1, 'tag', id FROM werkbank_tag WHERE id % 7 = 0`,
    [userId],
  );
  for (const table of ['werkbank_tag', 'werkbank_tag_assignment', 'werkbank_favorite', 'hello_greeting'])
    await db.query(`VACUUM ANALYZE ${table}`);
}
