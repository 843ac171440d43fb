import { ApiError, type ResourceRequest, type Row } from '@werkbank/sdk/node';
import { exceptionText } from './run-message';
import { definitionOf, FRAME_PATH, NODE_PATH, SWITCHBOARD_PATH, WORKFLOW_PATH } from './switchboard-access';
import { executionSummary } from './switchboard-resources';
import { loadContents } from './frame-content';
import { SwitchboardsServices } from './switchboards-services';

/**
 * May the caller see this execution? Who may read its switchboard may; who started it through a
 * workflow may while they may still execute that workflow. An API key limited to the realm
 * `workflow` sees only workflow executions.
 */
async function mayPoll(r: ResourceRequest, e: Row): Promise<boolean> {
  if (r.realms && !r.realms.includes('*') && !r.realms.includes('switchboard') && !e.workflow_id) return false;
  if (r.user.isSuperuser) return true;
  if (!r.realms || r.realms.includes('*') || r.realms.includes('switchboard')) {
    if (await r.services.loadReadable(definitionOf(r, 'switchboard'), e.switchboard_id as number, r)) return true;
  }
  if (e.user_id !== r.user.id || !e.workflow_id) return false;
  const def = definitionOf(r, 'workflow');
  const wf = await r.services.loadReadable(def, e.workflow_id as number, r);
  return !!wf && (await r.services.mayAccess(def, wf, r, 'execute'));
}

/**
 * An execution for polling: status, the run panel's stage, progress, node runs and, at the end, the
 * results — the output frames' content as this execution's runs wrote it (not as the frames hold it
 * now). 404 unless the caller may see it (mayPoll) or is `trusted` (who just started it). Exceptions
 * are in the caller's language.
 */
export async function executionJson(
  r: ResourceRequest,
  services: Pick<SwitchboardsServices, 'translate'>,
  id: number,
  trusted = false,
): Promise<Record<string, unknown>> {
  const [e] = (await r.manager.query(`SELECT * FROM switchboard_execution WHERE id = $1`, [id])) as Row[];
  if (!e) throw ApiError.notFound();
  if (!trusted && !(await mayPoll(r, e))) throw ApiError.notFound();
  const runs = (await r.manager.query(
    `SELECT r.id, r.node_id, r.status, r.start, r."end", r.exception, r.exception_i18n, r.skipped, r.outputs, n.func
       FROM switchboard_noderun r JOIN switchboard_node n ON n.id = r.node_id WHERE r.execution_id = $1 ORDER BY r.id`,
    [id],
  )) as Row[];
  const status = String(e.status);
  const out: Record<string, unknown> = {
    ...executionSummary(e),
    switchboard: `${SWITCHBOARD_PATH}${String(e.switchboard_id)}/`,
    workflow: e.workflow_id ? `${WORKFLOW_PATH}${String(e.workflow_id)}/` : null,
    // The run panel's stages (spec 000 §2): input data, progress, result.
    stage: status === 'started' ? 'progress' : 'result',
    progress: Number(e.total) ? Math.round((Number(e.done) / Number(e.total)) * 1000) / 10 : 100,
    message: e.message,
    runs: runs.map((x) => ({
      id: x.id,
      resource_uri: `/api/v1/noderun/${x.id}/`,
      node: `${NODE_PATH}${String(x.node_id)}/`,
      func: x.func,
      status: x.status,
      skipped: !!x.skipped,
      exception: exceptionText(services, r.lang, x.exception, x.exception_i18n),
      start: x.start ? new Date(x.start as string).toISOString() : null,
      end: x.end ? new Date(x.end as string).toISOString() : null,
    })),
  };
  if (status === 'success') {
    const frames = (await r.manager.query(
      `SELECT id, name, content_type FROM switchboard_frame WHERE switchboard_id = $1 AND frame_type = 2 ORDER BY id`,
      [e.switchboard_id],
    )) as Row[];
    // What this execution's runs wrote (skipped runs name what they left in place).
    const wrote = new Map<number, string>();
    for (const run of runs)
      for (const o of (run.outputs as Array<{ frame_id: number; hash: string }> | null) ?? []) wrote.set(o.frame_id, o.hash);
    const contents = await loadContents(r.manager, [...wrote.values()]);
    out.results = frames
      .filter((f) => wrote.has(f.id))
      .map((f) => ({
        frame: `${FRAME_PATH}${f.id}/`,
        name: f.name,
        content_type: `/api/v1/type/${String(f.content_type)}/`,
        items: contents.get(wrote.get(f.id)!) ?? [],
      }));
  }
  return out;
}
