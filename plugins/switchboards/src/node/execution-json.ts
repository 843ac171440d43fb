import { ApiError, type ResourceRequest, type Row } from '@werkbank/sdk/node';
import { definitionOf, FRAME_PATH, NODE_PATH, SWITCHBOARD_PATH, WORKFLOW_PATH } from './switchboard-access';
import { executionSummary } from './switchboard-resources';
import { loadContents } from './frame-content';

/**
 * An execution for polling: status, the run panel's stage, progress, node runs and, at the end, the
 * results. 404 unless the caller started it, may read its switchboard or workflow, or is `trusted`
 * (the caller who just started it through a workflow).
 */
export async function executionJson(r: ResourceRequest, id: number, trusted = false): Promise<Record<string, unknown>> {
  const [e] = (await r.manager.query(`SELECT * FROM switchboard_execution WHERE id = $1`, [id])) as Row[];
  if (!e) throw ApiError.notFound();
  if (!trusted && e.user_id !== r.user.id && !r.user.isSuperuser) {
    const sb = await r.services.loadReadable(definitionOf(r, 'switchboard'), e.switchboard_id as number, r);
    const wf = e.workflow_id ? await r.services.loadReadable(definitionOf(r, 'workflow'), e.workflow_id as number, r) : undefined;
    if (!sb && !wf) throw ApiError.notFound();
  }
  const runs = (await r.manager.query(
    `SELECT r.id, r.node_id, r.status, r.start, r."end", r.exception, r.skipped, n.func
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
      exception: x.exception,
      start: x.start ? new Date(x.start as string).toISOString() : null,
      end: x.end ? new Date(x.end as string).toISOString() : null,
    })),
  };
  if (status === 'success') {
    const frames = (await r.manager.query(
      `SELECT id, name, content_type, content_hash FROM switchboard_frame WHERE switchboard_id = $1 AND frame_type = 2 ORDER BY id`,
      [e.switchboard_id],
    )) as Row[];
    const contents = await loadContents(
      r.manager,
      frames.map((f) => (f.content_hash ? String(f.content_hash).trim() : '')),
    );
    out.results = frames.map((f) => ({
      frame: `${FRAME_PATH}${f.id}/`,
      name: f.name,
      content_type: `/api/v1/type/${String(f.content_type)}/`,
      items: f.content_hash ? (contents.get(String(f.content_hash).trim()) ?? []) : [],
    }));
  }
  return out;
}
