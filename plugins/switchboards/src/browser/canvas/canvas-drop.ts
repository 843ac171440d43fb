import type { FunctionInfo } from '../../common/switchboard-types';
import type { InsertResult } from '../dialogs/insert-result';

/**
 * What a drop onto the canvas inserts (spec 000 §2 "Dropping onto the canvas"): a function becomes a
 * node; files an upload frame; URLs a string frame (joined by newlines); text a string frame.
 */
export function dropToInsert(data: DataTransfer, functionMime: string, t: (k: string) => string): InsertResult | undefined {
  const func = data.getData(functionMime);
  // A dragged function carries only its name; the node is made from the name.
  if (func) return { kind: 'function', func: { name: func } as FunctionInfo };
  if (data.files && data.files.length) return { kind: 'upload', files: [...data.files] };
  const uris = data.getData('text/uri-list');
  if (uris) {
    const list = uris.split(/\r?\n/).filter((l) => l && !l.startsWith('#'));
    if (list.length) return { kind: 'frame', contentType: 'string', items: [{ value: list.join('\n') }], name: t('drop.urls') };
  }
  const text = data.getData('text/plain');
  if (text) return { kind: 'frame', contentType: 'string', items: [{ value: text }], name: t('drop.text') };
  return undefined;
}
