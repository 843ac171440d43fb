import type { FrameItems, FunctionContribution, FunctionDescriptor } from '@werkbank/sdk/node';
import { checkpoint, failure, filterChunked, itemsOf, mapChunked, paramOf } from './frame-items';

type Item = FrameItems[number];
const anyPort = (name: string) => ({ name, content_type: 'any' });
const textPort = (name: string) => ({ name, content_type: 'string' });
const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * The value at a dotted path (`value.kind`) of the item's fields. A feature's fields are
 * `{feature: {...}}`, so a path not found there is looked up inside the feature too
 * (`properties.kind`). Only own properties count.
 */
export function attributeAt(item: Item, path: string): unknown {
  const parts = path.split('.').map((p) => p.trim());
  const walk = (root: unknown) =>
    parts.reduce<unknown>(
      (o, key) => (o !== null && typeof o === 'object' && Object.hasOwn(o, key) ? (o as Item)[key] : undefined),
      root,
    );
  const direct = walk(item);
  return direct === undefined && isObject(item.feature) ? walk(item.feature) : direct;
}

/** Whether an attribute equals the text a user typed: numbers compare as numbers, others as text. */
export function attributeEquals(attribute: unknown, text: string): boolean {
  if (attribute === undefined) return false;
  if (typeof attribute === 'number') return text.trim() !== '' && Number(text) === attribute;
  if (attribute === null || typeof attribute === 'boolean') return String(attribute) === text.trim();
  if (typeof attribute === 'object') return JSON.stringify(attribute) === text.trim();
  return String(attribute) === text;
}

const pick = (o: Record<string, unknown>, fields: string[]) =>
  Object.fromEntries(fields.filter((f) => Object.hasOwn(o, f)).map((f) => [f, o[f]]));

/** The item with only `fields` in its feature's properties or its object value; others unchanged. */
export function selectFields(item: Item, fields: string[]): Item {
  const feature = item.feature;
  if (isObject(feature))
    return isObject(feature.properties)
      ? { ...item, feature: { ...feature, properties: pick(feature.properties, fields) } }
      : item;
  return isObject(item.value) ? { ...item, value: pick(item.value, fields) } : item;
}

/** Frame utilities for frames of every type. */
export const FRAME_FUNCTIONS: FunctionDescriptor[] = [
  {
    id: 'frame.merge',
    version: '1',
    verbose_name: { de: 'Frames zusammenführen', en: 'Merge frames' },
    doc: {
      de: 'Hängt die Elemente aller verbundenen Frames in der Reihenfolge der Anschlüsse aneinander.',
      en: 'Concatenates the items of all linked frames in the order of their slots.',
    },
    inputs: [{ ...anyPort('frames'), is_list: true }],
    outputs: [anyPort('frame')],
    run: async (inputs, ctx) => {
      const frames = inputs.frames ?? [];
      if (!Array.isArray(frames) || frames.some((f) => !Array.isArray(f))) throw failure('list_expected', { port: 'frames' });
      const out: FrameItems = [];
      for (const [i, frame] of (frames as FrameItems[]).entries()) {
        await checkpoint(ctx, i, frames.length);
        for (const item of frame) out.push(item);
      }
      return { frame: out };
    },
  },
  {
    id: 'frame.filter',
    version: '1',
    verbose_name: { de: 'Frame filtern', en: 'Filter frame' },
    doc: {
      de: 'Behält die Elemente, deren Attribut (ein Pfad wie value.kind, bei Features properties.kind) gleich value ist. Zahlen werden als Zahlen verglichen.',
      en: 'Keeps the items whose attribute (a path such as value.kind, for features properties.kind) equals value. Numbers compare as numbers.',
    },
    inputs: [anyPort('frame'), textPort('attribute'), textPort('value')],
    outputs: [anyPort('frame')],
    run: async (inputs, ctx) => {
      const path = String(paramOf(inputs, 'attribute')).trim();
      if (!path) throw failure('parameter_missing', { port: 'attribute' });
      const value = String(paramOf(inputs, 'value', ''));
      return {
        frame: await filterChunked(itemsOf(inputs, 'frame'), ctx, (item) => attributeEquals(attributeAt(item, path), value)),
      };
    },
  },
  {
    id: 'frame.select',
    version: '1',
    verbose_name: { de: 'Felder auswählen', en: 'Select fields' },
    doc: {
      de: 'Behält nur die genannten Felder (durch Kommas getrennt) jedes Objekts, jeder Zeile oder der Eigenschaften jedes Features.',
      en: 'Keeps only the named fields (comma separated) of every object, row or feature’s properties.',
    },
    inputs: [anyPort('frame'), textPort('fields')],
    outputs: [anyPort('frame')],
    run: async (inputs, ctx) => {
      const fields = String(paramOf(inputs, 'fields'))
        .split(',')
        .map((f) => f.trim())
        .filter(Boolean);
      if (!fields.length) throw failure('parameter_missing', { port: 'fields' });
      const items = itemsOf(inputs, 'frame');
      return { frame: await mapChunked(items.length, ctx, (i) => selectFields(items[i], fields)) };
    },
  },
  {
    id: 'frame.count',
    version: '1',
    verbose_name: { de: 'Elemente zählen', en: 'Count items' },
    doc: { de: 'Die Anzahl der Elemente des Frames als ein Element.', en: 'The number of items of the frame as one item.' },
    inputs: [anyPort('frame')],
    outputs: [{ name: 'count', content_type: 'int' }],
    run: async (inputs) => ({ count: [{ value: itemsOf(inputs, 'frame').length }] }),
  },
];

export const frameFunctions: FunctionContribution = {
  registerFunctions: (registry) => FRAME_FUNCTIONS.forEach((f) => registry.add(f)),
};
