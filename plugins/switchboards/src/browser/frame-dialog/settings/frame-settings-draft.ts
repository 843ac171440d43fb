import { makeAutoObservable } from '@werkbank/sdk/browser';
import { typeName, type Frame } from '../../../common/switchboard-types';
import { storageContextFor, storageKindOf, type StorageKind } from './storage-context';

/**
 * The Settings tab's values until they are saved (spec 001 §2.6): data type, storage, and the
 * input/output mode with its name and description (frame_type 0 normal, 1 input, 2 output).
 */
export class FrameSettingsDraft {
  name: string;
  description: string;
  typeName: string;
  storage: StorageKind;
  frameType: 0 | 1 | 2;

  constructor(readonly frame: Frame) {
    this.name = frame.name ?? '';
    this.description = frame.description ?? '';
    this.typeName = frame.type_name ?? typeName(frame.content_type);
    this.storage = storageKindOf(frame.storage_context);
    this.frameType = frame.frame_type ?? 0;
    makeAutoObservable(this, { frame: false });
  }

  set<K extends 'name' | 'description' | 'typeName' | 'storage' | 'frameType'>(key: K, value: FrameSettingsDraft[K]): void {
    (this as FrameSettingsDraft)[key] = value;
  }

  /** The data type differs from the frame's: saving it removes the current items (spec 001 §2.6). */
  get typeChanged(): boolean {
    return this.typeName !== (this.frame.type_name ?? typeName(this.frame.content_type));
  }

  /** The frame's fields to PATCH, or undefined when nothing changed. A new type also empties the frame. */
  get changes(): Record<string, unknown> | undefined {
    const f = this.frame;
    const out: Record<string, unknown> = {};
    if (this.name !== (f.name ?? '')) out.name = this.name;
    if (this.description !== (f.description ?? '')) out.description = this.description;
    if (this.frameType !== (f.frame_type ?? 0)) out.frame_type = this.frameType;
    if (this.storage !== storageKindOf(f.storage_context))
      out.storage_context = storageContextFor(this.storage, f.storage_context);
    if (this.typeChanged) {
      out.content_type = this.typeName;
      out.content = [];
    }
    return Object.keys(out).length ? out : undefined;
  }
}
