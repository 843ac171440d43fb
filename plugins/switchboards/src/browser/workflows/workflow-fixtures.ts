/** Replies of the fake API the workflow specs share (shapes of docs/api.md "Workflows", "Running"). */
import type { Execution, Frame } from '../../common/switchboard-types';
import type { ListedWorkflow } from './workflow-entries';

/** A switchboard the caller may view, run and change (the lists area's fixture). */
export { switchboard } from '../lists/lists-test-fixtures';

export function ioFrame(id: number, name: string, type: string, frameType: 1 | 2, description = ''): Frame {
  return {
    id,
    resource_uri: `/api/v1/frame/${id}/`,
    switchboard: '/api/v1/switchboard/9/',
    content_type: `/api/v1/type/${type}/`,
    type_name: type,
    storage_context: null,
    frame_type: frameType,
    name,
    description,
    content_visible: true,
    content_edit: false,
    ui_docked: false,
    ui_x: 0,
    ui_y: 0,
    size: 0,
    text_repr: '',
  };
}

/** A workflow on switchboard 9 (text → Großbuchstaben) the caller may read, run and change. */
export function workflow(id: number, name: string, patch: Partial<ListedWorkflow> = {}): ListedWorkflow {
  return {
    id,
    resource_uri: `/api/v1/workflow/${id}/`,
    name,
    description: '',
    image: '',
    slug: null,
    steps: [{ switchboard: '/api/v1/switchboard/9/', executor: 'default' }],
    switchboard: '/api/v1/switchboard/9/',
    input_frames: [ioFrame(3, 'text', 'string', 1, 'Der Text, der umgewandelt wird')],
    output_frames: [ioFrame(4, 'Großbuchstaben', 'string', 2)],
    api_url: `/api/v1/workflow/${id}/execute/`,
    owner: '/api/v1/user/1/',
    permissions: [],
    access: ['read', 'execute', 'write'],
    favored: false,
    ...patch,
  };
}

/** Execution 77 of switchboard 9 in `status`. */
export function execution(status: Execution['status'], patch: Partial<Execution> = {}): Execution {
  return {
    id: 77,
    resource_uri: '/api/v1/execution/77/',
    status,
    trigger: 'workflow',
    start: '2026-11-26T10:00:00Z',
    end: status === 'started' ? null : '2026-11-26T10:00:02Z',
    total: 2,
    done: status === 'started' ? 1 : 2,
    failed: status === 'failure' ? 1 : 0,
    skipped: 0,
    progress: status === 'started' ? 42.54 : 100,
    stage: status === 'started' ? 'progress' : 'result',
    message: null,
    runs: [],
    ...patch,
  };
}
