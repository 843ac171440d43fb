import { ANY_TYPE } from '@werkbank/sdk';
import { typeName } from './switchboard-types';

/** What the link rule needs of the type registry; the kernel's TypeRegistry (both sides) fits. */
export interface TypeLookup {
  /** The registered type of this name, or undefined. */
  type(name: string): unknown;
  /** `from` equals `to` or derives from it through the base chain (STYLE §6). */
  isAssignable(from: string, to: string): boolean;
}

/** The end of a link at a node: one of its ports (a type name or a type address). */
export interface LinkPort {
  name: string;
  content_type: string;
  is_input: boolean;
  is_list?: boolean;
  is_dict?: boolean;
}

/** Where on an input a link attaches: a list position or a dictionary key (neither for plain ports). */
export interface LinkSlot {
  list_index?: number | null;
  dict_key?: string | null;
}

/**
 * Why a link is refused. The message key of each side is named after it:
 * - `type_mismatch`: the frame's type does not feed the input, or the output does not write that type;
 * - `unknown_type`: the frame's or the port's type is not registered (its plugin is not installed);
 * - `list_key`, `list_index`: a list input takes a position of 0 or more, no key;
 * - `dict_index`, `dict_key`: a dictionary input takes a non-empty key, no position;
 * - `plain_slot`: any other port takes neither.
 */
export type LinkRefusal = 'type_mismatch' | 'unknown_type' | 'list_key' | 'list_index' | 'dict_index' | 'dict_key' | 'plain_slot';

export type LinkVerdict =
  | { ok: true }
  | {
      ok: false;
      reason: LinkRefusal;
      /** The field of a link body the refusal is about. */
      field: 'frame' | 'list_index' | 'dict_key';
      /** The type that would flow and the type that would receive it (type names). */
      from: string;
      to: string;
    };

/**
 * The link rule (spec 000 §5), the one copy both the canvas (its `connectioncreate` pipe) and the
 * server (when a link is saved and when a switchboard runs) ask. A frame feeds an input when the
 * frame's type equals or derives from the port's through the base chain; an output writes into a
 * frame when the port's type equals or derives from the frame's. A generic port (`any`) takes and
 * yields every registered type: a generic output yields what its inputs held, so it may write into
 * a frame of any type. A type nobody registers is refused on both sides, so the canvas never
 * offers what the server would refuse. Slots are checked after types.
 */
export function canLink(types: TypeLookup, frameContentType: string, port: LinkPort, slot: LinkSlot = {}): LinkVerdict {
  const frame = typeName(frameContentType);
  const portType = typeName(port.content_type);
  const [from, to] = port.is_input ? [frame, portType] : [portType, frame];
  const refuse = (reason: LinkRefusal, field: 'frame' | 'list_index' | 'dict_key' = 'frame'): LinkVerdict => ({
    ok: false,
    reason,
    field,
    from,
    to,
  });
  const known = (t: string) => t === ANY_TYPE || types.type(t) !== undefined;
  if (!known(frame) || !known(portType)) return refuse('unknown_type');
  if (portType !== ANY_TYPE && !types.isAssignable(from, to)) return refuse('type_mismatch');
  const index = slot.list_index ?? null;
  const key = slot.dict_key ?? null;
  if (port.is_input && port.is_list) {
    if (key !== null) return refuse('list_key', 'dict_key');
    if (index !== null && !(Number.isInteger(index) && index >= 0)) return refuse('list_index', 'list_index');
  } else if (port.is_input && port.is_dict) {
    if (index !== null) return refuse('dict_index', 'list_index');
    if (typeof key !== 'string' || !key.trim()) return refuse('dict_key', 'dict_key');
  } else if (index !== null || key !== null) {
    return refuse('plain_slot', index !== null ? 'list_index' : 'dict_key');
  }
  return { ok: true };
}
