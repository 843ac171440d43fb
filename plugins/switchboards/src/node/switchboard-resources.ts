import { ApiError, type ResourceDefinition, type ResourceRequest, type Row } from '@werkbank/sdk/node';
import { formatRecurrence, nextRun, normalizeRecurrence, parseRecurrence, RecurrenceError } from '../common/recurrence';
import { definitionOf, FRAME_PATH, refParam, SWITCHBOARD_PATH, WORKFLOW_PATH, EXECUTION_PATH } from './switchboard-access';
import { switchboardContextview } from './contextview';
import { publishLive } from './live';
import { SwitchboardsServices } from './switchboards-services';
import { SWITCHBOARD_FOLDER_PATH as FOLDER_PATH } from '../common/switchboard-types';

export { FOLDER_PATH };

/**
 * A folder a switchboard may be filed into: one the caller may change (its owner or a superuser,
 * issue 14 item 29); 400 when it is unknown or unreadable, 403 when it is someone else's, both
 * naming the field.
 */
async function ensureFolder(id: number | null | undefined, req: ResourceRequest, field: string): Promise<void> {
  if (id === null || id === undefined) return;
  const def = definitionOf(req, 'switchboardfolder');
  const folder = await req.services.loadReadable(def, id, req);
  if (!folder) throw ApiError.badRequest('invalid_field', 'switchboards:errors.folder_unknown', { field }, field);
  if (!(await req.services.mayAccess(def, folder, req, 'write')) || def.hooks?.checkWrite?.(folder, req, 'update')) {
    throw new ApiError(403, 'permission_denied', 'switchboards:errors.folder_file_denied', { name: folder.name }, field);
  }
}

/** Whether the caller may change the folder and file switchboards into it: its owner or a superuser. */
export function mayChangeFolder(folder: Row, req: Pick<ResourceRequest, 'user'>): boolean {
  return req.user.isSuperuser || folder.owner_id === req.user.id || folder.owner_id === null;
}

/** How many blocking switchboards a refusal to delete a folder names. */
const NAMED_BLOCKERS = 5;

/**
 * Normalises a recurrence rule text (spec 002 §5 defaults) and gives the next run from now when
 * periodic execution is on; 400 `invalid_rule` naming what is wrong.
 */
export function scheduleOf(periodic: boolean, ruleText: string, now = new Date()): { rule: string; next_run: Date | null } {
  if (!ruleText.trim()) {
    if (periodic) throw ApiError.badRequest('invalid_rule', 'switchboards:errors.rule_missing', {}, 'periodic_execution_rule');
    return { rule: '', next_run: null };
  }
  try {
    const rule = formatRecurrence(normalizeRecurrence(parseRecurrence(ruleText)));
    return { rule, next_run: periodic ? nextRun(rule, now) : null };
  } catch (e) {
    if (e instanceof RecurrenceError) {
      throw ApiError.badRequest('invalid_rule', `switchboards:${e.key}`, {}, 'periodic_execution_rule');
    }
    throw e;
  }
}

/** The input (1) and output (2) frames of switchboards: a workflow's parameters and results. */
export async function workflowFrames(req: Pick<ResourceRequest, 'manager'>, ids: number[]): Promise<Row[]> {
  if (!ids.length) return [];
  return (await req.manager.query(
    `SELECT id, switchboard_id, name, description, content_type, frame_type, size FROM switchboard_frame
      WHERE switchboard_id = ANY($1) AND frame_type IN (1, 2) ORDER BY id`,
    [ids],
  )) as Row[];
}

export function ioFrameJson(f: Row): Record<string, unknown> {
  return {
    resource_uri: `${FRAME_PATH}${f.id}/`,
    name: f.name,
    description: f.description,
    content_type: `/api/v1/type/${String(f.content_type)}/`,
    type_name: f.content_type,
    frame_type: f.frame_type,
    size: f.size,
  };
}

/** Switchboard folders (spec 000 §3): a flat list of named folders. */
export const switchboardFolderResource: ResourceDefinition = {
  id: 'switchboards.switchboardfolder',
  kind: 'switchboardfolder',
  realm: 'switchboard',
  table: 'switchboard_folder',
  label: { de: 'den Schaltpult-Ordner', en: 'switchboard folder' },
  defaultOrder: 'name',
  ownerColumn: 'owner_id',
  description: 'Switchboard folders: named groups of switchboards.',
  fields: {
    name: { type: 'string', required: true, maxLength: 200, search: true, order: true },
    created: { type: 'datetime', readOnly: true, order: true },
  },
  hooks: {
    // Every signed-in user sees the folders; the owner (or a superuser) renames and deletes them.
    checkWrite: (row, req) => (mayChangeFolder(row, req) ? undefined : 'switchboards:errors.folder_owner'),
    /**
     * Switchboards the caller may change (move or delete) block the deletion, and the refusal names
     * them; others' switchboards filed into the folder do not, and leave it (to the top level).
     */
    async beforeDelete(row, req) {
      const def = definitionOf(req, 'switchboard');
      const inside = (await req.manager.query(`SELECT * FROM switchboard WHERE folder_id = $1 ORDER BY name, id`, [
        row.id,
      ])) as Row[];
      const blocking: string[] = [];
      for (const sb of inside) if (await req.services.mayAccess(def, sb, req, 'write')) blocking.push(String(sb.name));
      if (!blocking.length) return;
      const names = blocking.slice(0, NAMED_BLOCKERS).map((n) => `“${n}”`);
      if (blocking.length > NAMED_BLOCKERS)
        names.push(req.t('switchboards:errors.folder_more', { count: blocking.length - NAMED_BLOCKERS }));
      throw new ApiError(409, 'folder_not_empty', 'switchboards:errors.folder_not_empty', {
        name: row.name,
        count: blocking.length,
        names: names.join(', '),
      });
    },
  },
};

/** Switchboards (spec 000 §3, spec 002 §3): canvases of nodes, frames, notes and links. */
export function switchboardResource(services: SwitchboardsServices): ResourceDefinition {
  return {
    id: 'switchboards.switchboard',
    kind: 'switchboard',
    table: 'switchboard',
    label: { de: 'das Schaltpult', en: 'switchboard' },
    defaultOrder: 'name',
    ownerColumn: 'owner_id',
    objectPermissions: { read: 'read_switchboard', write: 'write_switchboard', execute: 'execute_switchboard' },
    taggable: true,
    description:
      'Switchboards: canvases of nodes (functions), frames (typed data), notes and links; run, abort, schedule, duplicate, export and import.',
    fields: {
      name: { type: 'string', required: true, maxLength: 200, search: true, order: true },
      description: { type: 'text', default: '', search: true },
      folder: { type: 'ref', column: 'folder_id', refKind: 'switchboardfolder', nullable: true, filter: true },
      status: { type: 'string', readOnly: true, order: true },
      progress: { type: 'number', readOnly: true, hidden: true },
      // The canvas's saved viewport: view state, no event (issue 14 item 18).
      ui_offset_x: { type: 'number', default: 0, viewState: true },
      ui_offset_y: { type: 'number', default: 0, viewState: true },
      ui_zoom: {
        type: 'number',
        default: 1,
        viewState: true,
        validate: (v) => ((v as number) > 0 && (v as number) <= 100 ? undefined : 'switchboards:errors.zoom'),
      },
      automatic: { type: 'bool', default: false, filter: true },
      periodic_execution: { type: 'bool', default: false, filter: true },
      periodic_execution_rule: { type: 'text', default: '', maxLength: 500 },
      next_run: { type: 'datetime', readOnly: true, order: true, nullable: true },
      // Who turned automatic or periodic execution on: scheduled runs run as this user.
      scheduled_by: { type: 'ref', refKind: 'user', readOnly: true, nullable: true },
      execution_id: { type: 'int', readOnly: true, hidden: true },
      created: { type: 'datetime', readOnly: true, order: true },
      modified: { type: 'datetime', readOnly: true, order: true },
    },
    queryParams: {
      // 'root' for switchboards outside every folder.
      in_folder: (qb, value) => {
        if (value === 'root') return void qb.andWhere('t.folder_id IS NULL');
        qb.andWhere('t.folder_id = :inFolder', { inFolder: refParam(value, FOLDER_PATH, 'folder') });
      },
    },
    hooks: {
      async beforeCreate(values, req) {
        await ensureFolder(values.folder_id as number | null | undefined, req, 'folder');
        const s = scheduleOf(!!values.periodic_execution, String(values.periodic_execution_rule ?? ''));
        values.periodic_execution_rule = s.rule;
        values.next_run = s.next_run;
        // The creator owns it and may run it: scheduled runs run as them.
        values.scheduled_by = values.automatic || values.periodic_execution ? req.user.id : null;
      },
      async beforeUpdate(row, changes, req) {
        // Only a move is checked: a store call that sends the folder it is in changes nothing.
        if (changes.folder_id !== undefined && changes.folder_id !== row.folder_id)
          await ensureFolder(changes.folder_id as number | null, req, 'folder');
        if (changes.periodic_execution !== undefined || changes.periodic_execution_rule !== undefined) {
          const s = scheduleOf(
            Boolean(changes.periodic_execution ?? row.periodic_execution),
            String(changes.periodic_execution_rule ?? row.periodic_execution_rule),
          );
          changes.periodic_execution_rule = s.rule;
          changes.next_run = s.next_run;
        }
        const scheduling = ['automatic', 'periodic_execution', 'periodic_execution_rule'].some(
          (f) => changes[f] !== undefined && changes[f] !== row[f],
        );
        if (scheduling) {
          const on = Boolean(changes.automatic ?? row.automatic) || Boolean(changes.periodic_execution ?? row.periodic_execution);
          // Scheduled runs run as the user who turned them on, so only who may run it may schedule it.
          if (
            on &&
            !(await req.services.mayAccess(
              req.services.definitions().find((d) => d.kind === 'switchboard')!,
              row,
              req,
              'execute',
            ))
          ) {
            throw ApiError.forbidden('schedule_denied', 'switchboards:errors.schedule_denied');
          }
          changes.scheduled_by = on ? req.user.id : null;
        }
        changes.modified = new Date();
      },
      async beforeDelete(row) {
        if (row.status === 'started') throw new ApiError(409, 'switchboard_running', 'switchboards:errors.delete_running');
      },
      // Announced after commit, also after a change of the grants: live channels check their readers again.
      async afterWrite(row, _virtuals, req) {
        publishLive(services, req.manager, {
          switchboard_id: row.id,
          event: 'UPDATE',
          resource_uri: `${SWITCHBOARD_PATH}${row.id}/`,
          // Small values only (bus messages stay under 7,000 bytes); clients reload the rest.
          fields: {
            name: row.name,
            automatic: row.automatic,
            periodic_execution: row.periodic_execution,
            next_run: row.next_run ? new Date(row.next_run as string).toISOString() : null,
          },
        });
      },
      async serialize(rows, out, req) {
        const frames = await workflowFrames(
          req,
          rows.map((r) => r.id),
        );
        const execIds = rows.map((r) => r.execution_id).filter((x): x is number => typeof x === 'number');
        const execs = execIds.length
          ? ((await req.manager.query(
              `SELECT id, status, trigger, start, "end", total, done, failed, skipped FROM switchboard_execution WHERE id = ANY($1)`,
              [execIds],
            )) as Row[])
          : [];
        out.forEach((o, i) => {
          const row = rows[i];
          o.progress = { total: Math.round(Number(row.progress) * 10) / 10 };
          o.input_frames = frames.filter((f) => f.switchboard_id === row.id && f.frame_type === 1).map(ioFrameJson);
          o.output_frames = frames.filter((f) => f.switchboard_id === row.id && f.frame_type === 2).map(ioFrameJson);
          const e = execs.find((x) => x.id === row.execution_id);
          o.execution = e ? executionSummary(e) : null;
          o.api_url = `${SWITCHBOARD_PATH}${row.id}/execute/`;
        });
      },
    },
    contextview: (row, req) => switchboardContextview(row, req, services),
  };
}

export function executionSummary(e: Row): Record<string, unknown> {
  return {
    id: e.id,
    resource_uri: `${EXECUTION_PATH}${e.id}/`,
    status: e.status,
    trigger: e.trigger,
    start: e.start ? new Date(e.start as string).toISOString() : null,
    end: e.end ? new Date(e.end as string).toISOString() : null,
    total: e.total,
    done: e.done,
    failed: e.failed,
    skipped: e.skipped,
  };
}

/** Workflows (spec 002 §3): one switchboard step whose input and output frames are exposed. */
export function workflowResource(): ResourceDefinition {
  return {
    id: 'switchboards.workflow',
    kind: 'workflow',
    table: 'switchboard_workflow',
    label: { de: 'den Workflow', en: 'workflow' },
    defaultOrder: 'name',
    ownerColumn: 'owner_id',
    objectPermissions: { read: 'read_workflow', write: 'write_workflow', execute: 'execute_workflow' },
    taggable: true,
    description:
      'Workflows: one switchboard step (executor "default"); its input frames are the parameters and its output frames the results. POST {workflow}execute/ runs it.',
    fields: {
      name: { type: 'string', required: true, maxLength: 200, search: true, order: true },
      description: { type: 'text', default: '', search: true },
      image: { type: 'text', default: '', maxLength: 2000 },
      slug: {
        type: 'string',
        nullable: true,
        maxLength: 100,
        filter: true,
        validate: (v) => (v === null || /^[a-z0-9][a-z0-9-]*$/.test(String(v)) ? undefined : 'switchboards:errors.slug'),
      },
      switchboard_id: { type: 'int', readOnly: true, hidden: true },
      steps: { type: 'json', virtual: true },
      created: { type: 'datetime', readOnly: true, order: true },
      modified: { type: 'datetime', readOnly: true, order: true },
    },
    hooks: {
      async beforeCreate(values, req) {
        await uniqueSlug(values.slug, undefined, req);
      },
      async beforeUpdate(row, changes, req) {
        if (changes.slug !== undefined) await uniqueSlug(changes.slug, row.id, req);
        changes.modified = new Date();
      },
      async afterWrite(row, virtuals, req) {
        if (virtuals.steps === undefined) return;
        const steps = virtuals.steps === null ? [] : virtuals.steps;
        if (!Array.isArray(steps) || steps.length > 1) {
          throw ApiError.badRequest('invalid_field', 'switchboards:errors.steps', {}, 'steps');
        }
        let sbId: number | null = null;
        if (steps.length) {
          const step = steps[0] as Record<string, unknown> | null;
          if (!step || typeof step !== 'object')
            throw ApiError.badRequest('invalid_field', 'switchboards:errors.steps', {}, 'steps[0]');
          if (step.executor !== undefined && step.executor !== 'default') {
            throw ApiError.badRequest('invalid_field', 'switchboards:errors.executor', {}, 'steps[0].executor');
          }
          sbId = refParam(step.switchboard, SWITCHBOARD_PATH, 'steps[0].switchboard');
          // The workflow runs the switchboard for whoever may execute the workflow: its author must be
          // allowed to run the switchboard (and still be, when it executes).
          const sbDef = definitionOf(req, 'switchboard');
          const sb = await req.services.loadReadable(sbDef, sbId, req);
          if (!sb || !(await req.services.mayAccess(sbDef, sb, req, 'execute'))) {
            throw ApiError.badRequest('invalid_field', 'switchboards:errors.step_switchboard', {}, 'steps[0].switchboard');
          }
        }
        await req.manager.query(`UPDATE switchboard_workflow SET switchboard_id = $2 WHERE id = $1`, [row.id, sbId]);
        row.switchboard_id = sbId;
      },
      async serialize(rows, out, req) {
        const ids = rows.map((r) => r.switchboard_id).filter((x): x is number => typeof x === 'number');
        const frames = await workflowFrames(req, ids);
        out.forEach((o, i) => {
          const sb = rows[i].switchboard_id as number | null;
          o.steps = sb ? [{ switchboard: `${SWITCHBOARD_PATH}${sb}/`, executor: 'default' }] : [];
          o.switchboard = sb ? `${SWITCHBOARD_PATH}${sb}/` : null;
          o.input_frames = frames.filter((f) => f.switchboard_id === sb && f.frame_type === 1).map(ioFrameJson);
          o.output_frames = frames.filter((f) => f.switchboard_id === sb && f.frame_type === 2).map(ioFrameJson);
          o.api_url = `${WORKFLOW_PATH}${rows[i].id}/execute/`;
        });
      },
    },
  };
}

async function uniqueSlug(slug: unknown, except: number | undefined, req: ResourceRequest): Promise<void> {
  if (slug === null || slug === undefined || slug === '') return;
  const rows = (await req.manager.query(`SELECT id FROM switchboard_workflow WHERE slug = $1 AND id <> $2`, [
    slug,
    except ?? 0,
  ])) as Row[];
  if (rows.length) throw ApiError.badRequest('slug_taken', 'switchboards:errors.slug_taken', { slug: String(slug) }, 'slug');
}
