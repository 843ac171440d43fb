import assert from 'node:assert/strict';
import type { FieldSpec, FieldType, ResourceDefinition } from '@werkbank/sdk/node';
import { startTestServer, type TestServer } from '@werkbank/testing/node';

/** The PostgreSQL column types a field type may be stored in. */
const STORED_AS: Record<FieldType, string[]> = {
  string: ['character varying', 'text', 'character'],
  text: ['text', 'character varying'],
  int: ['integer', 'bigint', 'smallint'],
  number: ['double precision', 'numeric', 'real', 'integer', 'bigint'],
  bool: ['boolean'],
  datetime: ['timestamp with time zone', 'timestamp without time zone', 'date'],
  json: ['jsonb', 'json'],
  ref: ['integer', 'bigint'],
};

interface Column {
  column_name: string;
  data_type: string;
  is_nullable: 'YES' | 'NO';
  column_default: string | null;
  character_maximum_length: number | null;
}

/** What is wrong between a kind's declared fields and its table as the migrations made it. */
function mismatches(def: ResourceDefinition, columns: Map<string, Column>): string[] {
  const out: string[] = [];
  for (const [name, spec] of Object.entries(def.fields) as [string, FieldSpec][]) {
    if (spec.virtual) continue;
    const col = columns.get(spec.column ?? name);
    const where = `${def.kind}.${name} (${def.table}.${spec.column ?? name})`;
    if (!col) {
      out.push(`${where}: no such column`);
      continue;
    }
    if (!STORED_AS[spec.type].includes(col.data_type)) out.push(`${where}: ${spec.type} field stored as ${col.data_type}`);
    if (spec.nullable && col.is_nullable === 'NO') out.push(`${where}: nullable field on a NOT NULL column`);
    const clientMayOmit = !def.readOnly && !spec.required && !spec.readOnly && spec.default === undefined && !spec.createOnly;
    if (clientMayOmit && col.is_nullable === 'NO' && col.column_default === null && !def.hooks?.beforeCreate)
      out.push(`${where}: optional field on a NOT NULL column without a default`);
    // A beforeCreate hook may store something other than what the client sent (a type address as its name).
    const storedAsSent = !def.hooks?.beforeCreate;
    if (storedAsSent && spec.maxLength && col.character_maximum_length && spec.maxLength > col.character_maximum_length)
      out.push(`${where}: maxLength ${spec.maxLength} exceeds the column's ${col.character_maximum_length}`);
  }
  return out;
}

describe('resource fields against the migrations: every declared field is a column of the right type', function () {
  this.timeout(120_000);
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ examples: true });
  });
  after(async () => t?.close());

  it('finds every non-virtual field of every kind as a column its type may be stored in', async () => {
    const problems: string[] = [];
    const defs = t.server.resources.all();
    assert.ok(defs.length >= 15, `the kinds of every plugin are checked (${defs.length})`);
    for (const def of defs) {
      const rows = (await t.server.db.dataSource.query(
        `SELECT column_name, data_type, is_nullable, column_default, character_maximum_length
           FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1`,
        [def.table],
      )) as Column[];
      if (!rows.length) {
        problems.push(`${def.kind}: table ${def.table} does not exist`);
        continue;
      }
      problems.push(...mismatches(def, new Map(rows.map((r) => [r.column_name, r]))));
    }
    assert.deepEqual(problems, []);
  });

  it('names a field without a column, a type mismatch and a nullable field on a NOT NULL column', () => {
    const def = {
      kind: 'probe',
      table: 'probe',
      fields: {
        name: { type: 'string', maxLength: 200 },
        size: { type: 'int', nullable: true },
        missing: { type: 'bool' },
      },
    } as unknown as ResourceDefinition;
    const columns = new Map<string, Column>([
      [
        'name',
        { column_name: 'name', data_type: 'integer', is_nullable: 'YES', column_default: null, character_maximum_length: null },
      ],
      [
        'size',
        { column_name: 'size', data_type: 'integer', is_nullable: 'NO', column_default: '0', character_maximum_length: null },
      ],
    ]);
    assert.deepEqual(mismatches(def, columns), [
      'probe.name (probe.name): string field stored as integer',
      'probe.size (probe.size): nullable field on a NOT NULL column',
      'probe.missing (probe.missing): no such column',
    ]);
  });
});
