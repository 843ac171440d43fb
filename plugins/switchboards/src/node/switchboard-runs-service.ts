import { injectable, type ResourceRequest } from '@werkbank/sdk/node';
import type { SwitchboardRef, SwitchboardRuns } from '../common/switchboards-api';
import { definitionOf, SWITCHBOARD_PATH } from './switchboard-access';

/**
 * The switchboard of each node run (SwitchboardRuns): what a layer's pile names as the switchboard
 * that fills its depot (decision 0064). Switchboards the caller may not read are left out.
 */
@injectable()
export class SwitchboardRunsService implements SwitchboardRuns {
  async switchboardsOfRuns(req: ResourceRequest, runIds: number[]): Promise<Map<number, SwitchboardRef>> {
    const out = new Map<number, SwitchboardRef>();
    const ids = [...new Set(runIds.filter((id) => Number.isInteger(id) && id > 0))];
    if (!ids.length) return out;
    const rows = (await req.manager.query(`SELECT id, switchboard_id FROM switchboard_noderun WHERE id = ANY($1)`, [ids])) as {
      id: number;
      switchboard_id: number;
    }[];
    const def = definitionOf(req, 'switchboard');
    const readable = new Map<number, SwitchboardRef | null>();
    for (const run of rows) {
      if (!readable.has(run.switchboard_id)) {
        const sb = await req.services.loadReadable(def, run.switchboard_id, req);
        readable.set(
          run.switchboard_id,
          sb ? { id: sb.id, resource_uri: `${SWITCHBOARD_PATH}${sb.id}/`, name: String(sb.name) } : null,
        );
      }
      const ref = readable.get(run.switchboard_id);
      if (ref) out.set(run.id, ref);
    }
    return out;
  }
}
