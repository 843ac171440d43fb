import type { EntityManager, FrameItems, Row } from '@werkbank/sdk/node';
import { loadContents } from './frame-content';
import type { NodePort } from './links';

/** The format marker of "Save as file" (export) and import. */
export const FILE_FORMAT = 'werkbank-switchboard';
export const FILE_VERSION = 1;

export interface SwitchboardFile {
  format: typeof FILE_FORMAT;
  version: number;
  switchboard: Record<string, unknown>;
  nodes: Array<Record<string, unknown> & { ref: number }>;
  frames: Array<Record<string, unknown> & { ref: number; items: FrameItems }>;
  links: Array<Record<string, unknown>>;
  notes: Array<Record<string, unknown>>;
}

/** A switchboard with its nodes (and parameters), frames (with their items), links and notes. */
export async function exportSwitchboard(m: EntityManager, sb: Row): Promise<SwitchboardFile> {
  const q = (sql: string) => m.query(sql, [sb.id]) as Promise<Row[]>;
  const nodes = await q(`SELECT * FROM switchboard_node WHERE switchboard_id = $1 ORDER BY id`);
  const frames = await q(`SELECT * FROM switchboard_frame WHERE switchboard_id = $1 ORDER BY id`);
  const links = await q(`SELECT * FROM switchboard_link WHERE switchboard_id = $1 ORDER BY id`);
  const notes = await q(`SELECT * FROM switchboard_note WHERE switchboard_id = $1 ORDER BY id`);
  const contents = await loadContents(
    m,
    frames.map((f) => (f.content_hash ? String(f.content_hash).trim() : '')),
  );
  return {
    format: FILE_FORMAT,
    version: FILE_VERSION,
    switchboard: {
      name: sb.name,
      description: sb.description,
      ui_offset_x: sb.ui_offset_x,
      ui_offset_y: sb.ui_offset_y,
      ui_zoom: sb.ui_zoom,
      automatic: sb.automatic,
      periodic_execution: sb.periodic_execution,
      periodic_execution_rule: sb.periodic_execution_rule,
    },
    nodes: nodes.map((n) => ({
      ref: n.id,
      func: n.func,
      ports: (n.ports as NodePort[])
        .filter((p) => p.is_input && p.default_value)
        .map((p) => ({ name: p.name, default_value: p.default_value })),
      ui_x: n.ui_x,
      ui_y: n.ui_y,
      ui_collapsed: n.ui_collapsed,
    })),
    frames: frames.map((f) => ({
      ref: f.id,
      content_type: f.content_type,
      storage_context: f.storage_context,
      dynamic_storage_context: f.dynamic_storage_context,
      frame_type: f.frame_type,
      name: f.name,
      description: f.description,
      content_visible: f.content_visible,
      content_edit: f.content_edit,
      ui_docked: f.ui_docked,
      ui_x: f.ui_x,
      ui_y: f.ui_y,
      items: f.content_hash ? (contents.get(String(f.content_hash).trim()) ?? []) : [],
    })),
    links: links.map((l) => ({
      node: l.node_id,
      frame: l.frame_id,
      name: l.name,
      is_input: l.is_input,
      list_index: l.list_index,
      dict_key: l.dict_key,
    })),
    notes: notes.map((n) => ({ text: n.text, ui_x: n.ui_x, ui_y: n.ui_y })),
  };
}
