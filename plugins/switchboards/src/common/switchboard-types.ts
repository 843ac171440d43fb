import type { PermissionEntry } from '@werkbank/sdk';

/** Addresses of the switchboard API (docs/api.md "Switchboards"). */
export const SWITCHBOARD_PATH = '/api/v1/switchboard/';
export const SWITCHBOARD_FOLDER_PATH = '/api/v1/switchboardfolder/';
export const WORKFLOW_PATH = '/api/v1/workflow/';
export const NODE_PATH = '/api/v1/node/';
export const FRAME_PATH = '/api/v1/frame/';
export const LINK_PATH = '/api/v1/link/';
export const NOTE_PATH = '/api/v1/note/';
export const FUNCTION_PATH = '/api/v1/function/';
export const EXECUTION_PATH = '/api/v1/execution/';
export const NODERUN_PATH = '/api/v1/noderun/';
export const CREATE_SWITCHBOARD_PATH = '/api/v2/switchboard/create/';
export const CREATE_FROM_DATUM_PATH = '/api/v2/switchboard/create/datum/';
export const nodeRunsPath = (nodeId: number) => `/api/v2/switchboard/nodes/${nodeId}/runs/`;
export const createInFramePath = (frameId: number) => `/api/v1/datum/create-in-frame/${frameId}/`;

/** Browser routes of spec 000 §2. */
export const SWITCHBOARDS_ROUTE = '/switchboards/';
export const WORKFLOWS_ROUTE = '/workflows/';
export const switchboardRoute = (id: number) => `/switchboard/${id}`;

/** The id at the end of a resource address (`/api/v1/node/12/` → 12). */
export const idOf = (uri: string | null | undefined): number | undefined => {
  const m = uri ? /\/(\d+)\/?$/.exec(uri) : null;
  return m ? Number(m[1]) : undefined;
};
/** A type address `/api/v1/type/{name}/` or a bare name → the name. */
export const typeName = (t: string) => t.replace(/^\/api\/v1\/type\//, '').replace(/\/$/, '');

export type RunStatus = 'initialized' | 'waiting' | 'started' | 'success' | 'failure' | 'cancelled';

export interface ExecutionSummary {
  id: number;
  resource_uri: string;
  status: RunStatus;
  trigger: string;
  start: string | null;
  end: string | null;
  total: number;
  done: number;
  failed: number;
  skipped: number;
}

export interface Switchboard {
  id: number;
  resource_uri: string;
  name: string;
  description: string;
  folder: string | null;
  /** Tag objects as the server replies them. */
  tags: Array<{ id: number; name: string; color?: string; icon?: string; intent?: string; resource_uri?: string }>;
  status: RunStatus;
  progress: { total: number };
  ui_offset_x: number;
  ui_offset_y: number;
  ui_zoom: number;
  automatic: boolean;
  periodic_execution: boolean;
  periodic_execution_rule: string | null;
  next_run: string | null;
  scheduled_by: string | null;
  owner?: string | null;
  permissions?: PermissionEntry[];
  access?: string[];
  favored?: boolean;
  created?: string;
  modified?: string;
  input_frames: Frame[];
  output_frames: Frame[];
  execution: ExecutionSummary | null;
  api_url: string;
}

export interface SwitchboardFolder {
  id: number;
  resource_uri: string;
  name: string;
  owner?: string | null;
  access?: string[];
}

export interface Port {
  name: string;
  content_type: string;
  is_input: boolean;
  is_optional: boolean;
  is_list: boolean;
  is_dict: boolean;
  default_value: unknown;
}

export interface RunInfo {
  progress: number | null;
  count: number;
  exception: string | null;
}

export interface SbNode {
  id: number;
  resource_uri: string;
  switchboard: string;
  func: string;
  func_verbose_name: string;
  func_doc?: string;
  func_available?: boolean;
  superuser_required?: boolean;
  status: RunStatus;
  status_changed?: string | null;
  outdated: boolean;
  ports: Port[];
  links?: string[];
  ui_x: number;
  ui_y: number;
  ui_collapsed: boolean;
  runinfo: RunInfo;
  last_run?: string | null;
  access?: string[];
}

export interface Frame {
  id: number;
  resource_uri: string;
  switchboard: string;
  /** A type address `/api/v1/type/{name}/`. */
  content_type: string;
  type_name?: string;
  storage_context: Record<string, unknown> | null;
  dynamic_storage_context?: unknown;
  frame_type: 0 | 1 | 2;
  name: string;
  description: string;
  content_visible: boolean;
  content_edit: boolean;
  ui_docked: boolean;
  ui_x: number;
  ui_y: number;
  size: number;
  text_repr: string;
  outdated?: boolean;
  content_hash?: string;
  content_uri?: string;
}

export interface Link {
  id: number;
  resource_uri: string;
  node: string;
  frame: string;
  name: string;
  is_input: boolean;
  list_index: number | null;
  dict_key: string | null;
}

export interface Note {
  id: number;
  resource_uri: string;
  switchboard: string;
  text: string;
  html: string;
  ui_x: number;
  ui_y: number;
}

export interface CanvasContent {
  switchboard: Switchboard;
  nodes: SbNode[];
  frames: Frame[];
  links: Link[];
  notes: Note[];
}

export interface FunctionInfo {
  name: string;
  resource_uri: string;
  namespace: string;
  version: string;
  verbose_name: string;
  doc: string;
  inputs: Array<Port & { type: string }>;
  outputs: Array<Port & { type: string }>;
  favored: boolean;
  hidden: boolean;
  superuser_required: boolean;
  plugin: string;
}

export interface NodeRun {
  id: number;
  status: RunStatus;
  start: string | null;
  end: string | null;
  user: string | null;
  user_name?: string | null;
  stacktrace: string | null;
  exception: string | null;
  skipped?: boolean;
  func?: string;
  execution?: string | null;
  replayable?: boolean;
}

export interface Execution extends ExecutionSummary {
  progress: number;
  stage: 'progress' | 'result';
  message: string | null;
  runs: Array<{ id: number; node: string; func: string; status: RunStatus; skipped: boolean; exception: string | null }>;
  results?: Array<{ frame: string; name: string; content_type: string; items: unknown[] }>;
}

export interface Workflow {
  id: number;
  resource_uri: string;
  name: string;
  description: string;
  image: string | null;
  slug: string | null;
  steps: Array<{ switchboard: string; executor: 'default' }>;
  switchboard: string | null;
  input_frames: Frame[];
  output_frames: Frame[];
  api_url: string;
  owner?: string | null;
  permissions?: PermissionEntry[];
  access?: string[];
  favored?: boolean;
}
