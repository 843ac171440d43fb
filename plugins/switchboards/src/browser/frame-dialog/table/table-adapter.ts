import { frameKind, type FrameItem } from '../frame-kind';
import { ruleOfValues, type CellRule } from './cell-rules';

export interface TableColumn {
  id: string;
  /** A key of 'sb-frame:table.column.*' for fixed columns, else the data's own name. */
  label: { key: string } | { text: string };
  rule: CellRule;
  editable: boolean;
  /** Empty text is stored as null (free values); typed values refuse it. */
  nullable: boolean;
  width?: number;
  /** Takes the width the other columns leave. */
  fill?: boolean;
}

/** Reads and writes one type's datums as table rows (spec 001 §2.7). */
export interface TableAdapter {
  /** The columns for the loaded items (free columns in order of first appearance). */
  columns(items: FrameItem[]): TableColumn[];
  get(item: FrameItem, column: TableColumn): unknown;
  /** The item's fields with the column set to `value` (a new object). */
  set(item: FrameItem, column: TableColumn, value: unknown): FrameItem;
}

/** Thrown for a type no table adapter handles (spec 001 §8). */
export class UnhandledContentTypeError extends Error {
  constructor(readonly contentType: string) {
    super('Unhandled content type');
    this.name = 'UnhandledContentTypeError';
  }
}

const objectOf = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** Columns for the keys of an object inside each item, typed by the values they hold. */
function freeColumns(items: FrameItem[], objectAt: (item: FrameItem) => Record<string, unknown>): TableColumn[] {
  const keys: string[] = [];
  const seen = new Set<string>();
  for (const item of items)
    for (const key of Object.keys(objectAt(item)))
      if (!seen.has(key)) {
        seen.add(key);
        keys.push(key);
      }
  return keys.map((key) => {
    const rule = ruleOfValues(items.map((i) => objectAt(i)[key]));
    return { id: key, label: { text: key }, rule, editable: rule !== 'json', nullable: true };
  });
}

const rowAdapter: TableAdapter = {
  columns: (items) => freeColumns(items, (i) => objectOf(i.value)),
  get: (item, c) => objectOf(item.value)[c.id],
  set: (item, c, v) => ({ ...item, value: { ...objectOf(item.value), [c.id]: v } }),
};

const GEOMETRY: TableColumn = {
  id: '__geometry',
  label: { key: 'table.column.geometry' },
  rule: 'text',
  editable: false,
  nullable: true,
  width: 110,
};
const propertiesOf = (item: FrameItem) => objectOf(objectOf(item.feature).properties);

const featureAdapter: TableAdapter = {
  columns: (items) => [GEOMETRY, ...freeColumns(items, propertiesOf)],
  get: (item, c) => (c.id === GEOMETRY.id ? (objectOf(objectOf(item.feature).geometry).type ?? '') : propertiesOf(item)[c.id]),
  set: (item, c, v) => {
    const feature = objectOf(item.feature);
    return { ...item, feature: { ...feature, properties: { ...propertiesOf(item), [c.id]: v } } };
  },
};

/** spec 001 §2.7: file name fills the rest, mime 150, size and download 85 each. */
const FILE_COLUMNS: TableColumn[] = [
  { id: 'value', label: { key: 'table.column.file_name' }, rule: 'text', editable: true, nullable: false, fill: true },
  { id: 'mime_type', label: { key: 'table.column.mime' }, rule: 'text', editable: false, nullable: false, width: 150 },
  { id: 'size', label: { key: 'table.column.size' }, rule: 'size', editable: false, nullable: false, width: 85 },
  { id: 'download_url', label: { key: 'table.column.download' }, rule: 'download', editable: false, nullable: false, width: 85 },
];

const fieldAdapter = (columns: TableColumn[]): TableAdapter => ({
  columns: () => columns,
  get: (item, c) => item[c.id],
  set: (item, c, v) => ({ ...item, [c.id]: v }),
});

/** The one column of a simple value type, by its base chain. */
function valueColumn(chain: string[]): TableColumn {
  const is = (t: string) => chain.includes(t);
  if (is('color')) return { id: 'hex', label: { key: 'table.column.colour' }, rule: 'colour', editable: true, nullable: false };
  const rule: CellRule = is('bool') ? 'bool' : is('datetime') ? 'datetime' : is('int') ? 'int' : is('number') ? 'number' : 'text';
  return { id: 'value', label: { key: 'table.column.value' }, rule, editable: true, nullable: false };
}

/**
 * The table adapter for a type's base chain (most specific first); throws
 * UnhandledContentTypeError ('Unhandled content type') for types that are not table-capable.
 */
export function tableAdapterFor(chain: string[]): TableAdapter {
  switch (frameKind(chain)) {
    case 'row':
      return rowAdapter;
    case 'feature':
      return featureAdapter;
    case 'file':
      return fieldAdapter(FILE_COLUMNS);
    case 'value':
      return fieldAdapter([valueColumn(chain)]);
    default:
      throw new UnhandledContentTypeError(chain[0] ?? '');
  }
}
