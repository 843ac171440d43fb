import type { ResourceRequest, Row } from '@werkbank/sdk/node';
import { exceptionText, visibleStack } from './run-message';
import { SwitchboardsServices } from './switchboards-services';

const iso = (d: unknown) => (d ? new Date(d as string).toISOString() : null);

/**
 * A node run as the API replies it to `req` (spec 000 §3 Node run, plus what replay and lineage
 * need): the exception in the reader's language; the stack trace for superusers only, without
 * server paths (issue 14 item 19), null for everybody else.
 */
export function nodeRunJson(
  r: Row,
  req: Pick<ResourceRequest, 'lang' | 'user'>,
  services: Pick<SwitchboardsServices, 'translate'>,
  full = false,
): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: r.id,
    resource_uri: `/api/v1/noderun/${r.id}/`,
    node: `/api/v1/node/${String(r.node_id)}/`,
    status: r.status,
    start: iso(r.start),
    end: iso(r.end),
    user: r.user_id ? `/api/v1/user/${String(r.user_id)}/` : null,
    user_name: r.user_name ?? null,
    stacktrace: visibleStack(r.stacktrace, req.user.isSuperuser),
    exception: exceptionText(services, req.lang, r.exception, r.exception_i18n),
    skipped: !!r.skipped,
    func: r.func,
    func_version: r.func_version,
    execution: r.execution_id ? `/api/v1/execution/${String(r.execution_id)}/` : null,
    replay_of: r.replay_of ? `/api/v1/noderun/${String(r.replay_of)}/` : null,
    run_key: r.run_key ? String(r.run_key).trim() : null,
    inputs: r.inputs ?? [],
    moments_read: r.moments_read ?? [],
    moments_written: r.moments_written ?? [],
    attempt: r.attempt,
    replayable: !!r.inputs && ['failure', 'success'].includes(String(r.status)),
  };
  if (full) {
    out.log = r.log;
    out.parameters = r.parameters ?? {};
    out.outputs = r.outputs ?? [];
  }
  return out;
}
