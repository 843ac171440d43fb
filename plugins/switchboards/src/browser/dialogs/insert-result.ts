import type { FunctionInfo } from '../../common/switchboard-types';

/**
 * What the insert dialog (spec 000 §2) asks the canvas to add; the canvas performs it. An unknown
 * kind is only warned about (spec 000 §8 "Unhandled insert result").
 */
export type InsertResult =
  | { kind: 'function'; func: FunctionInfo } // add a node
  | { kind: 'frame'; contentType: string; name?: string; items: unknown[] } // add a frame holding these datum fields (data tab: a depot datum; empty tab: items [])
  | { kind: 'upload'; files: File[] } // add a file frame and upload these files
  | { kind: 'url'; url: string; func: string; params: Record<string, unknown> } // add a node of an import function with parameters
  | { kind: 'note'; text: string };
