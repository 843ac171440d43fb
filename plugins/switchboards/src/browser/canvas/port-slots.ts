import type { Link, Port } from '../../common/switchboard-types';

/** One socket of a node on the canvas: a port, or one slot of a list or dict port. */
export interface Slot {
  /** The socket key: `name`, `name[3]` (list slot) or `name{key}` (dict slot; `name{}` the empty one). */
  key: string;
  port: Port;
  listIndex: number | null;
  dictKey: string | null;
  /** The text beside the socket. */
  label: string;
}

/**
 * The sockets of a port (spec 000 §4): a list port shows index slots up to the highest used index
 * plus two (two slots when none is used); a dict port one slot per key plus an empty one.
 */
export function slotsOf(port: Port, links: Link[]): Slot[] {
  const mine = links.filter((l) => l.name === port.name && l.is_input === port.is_input);
  if (port.is_list) {
    const highest = Math.max(-1, ...mine.map((l) => l.list_index ?? -1));
    return Array.from({ length: highest + 3 }, (_, i) => ({
      key: `${port.name}[${i}]`,
      port,
      listIndex: i,
      dictKey: null,
      label: `${port.name}[${i}]`,
    }));
  }
  if (port.is_dict) {
    const keys = [...new Set(mine.map((l) => l.dict_key ?? ''))].filter(Boolean).sort();
    return [
      ...keys.map((k) => ({ key: `${port.name}{${k}}`, port, listIndex: null, dictKey: k, label: k })),
      { key: `${port.name}{}`, port, listIndex: null, dictKey: '', label: '' },
    ];
  }
  return [{ key: port.name, port, listIndex: null, dictKey: null, label: port.name }];
}

/** The socket key a link attaches to on its node. */
export function slotKeyOf(link: Link): string {
  if (link.dict_key != null && link.dict_key !== '') return `${link.name}{${link.dict_key}}`;
  if (link.list_index != null) return `${link.name}[${link.list_index}]`;
  return link.name;
}

/** spec 000 §9: port and dict names longer than this get a tooltip. */
export const NAME_TOOLTIP_LENGTH = 8;

/** The port a socket key belongs to: `name`, `name[3]` and `name{key}` all give `name`. */
export function portNameOfKey(key: string): string {
  return key.replace(/(\[\d+\]|\{[^]*\})$/, '');
}
