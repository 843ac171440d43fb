import { EntitySchema } from '@werkbank/sdk/node';

export interface TagRow {
  id: number;
  name: string;
  color: string;
  icon: string;
  intent: 'system' | 'user';
  created_by: number | null;
  created: Date;
}

/** The tag table for TypeORM repositories (system tags created by plugins at start-up). */
export const TagEntity = new EntitySchema<TagRow>({
  name: 'Tag',
  tableName: 'werkbank_tag',
  columns: {
    id: { type: 'int', primary: true, generated: 'increment' },
    name: { type: 'varchar', length: 100 },
    color: { type: 'varchar', length: 7 },
    icon: { type: 'varchar', length: 50 },
    intent: { type: 'varchar', length: 10 },
    created_by: { type: 'int', nullable: true },
    created: { type: 'timestamptz', createDate: true },
  },
});
