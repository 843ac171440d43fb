import type { Workflow } from '../../common/switchboard-types';

/**
 * WORKFLOW_MENU: the menu of a workflow card and table row on the workflow list (spec 000 §2).
 * Contribute entries with the kernel's MenuContribution, `menu: WORKFLOW_MENU`; `run(target)` and
 * `when(ctx, target)` receive the Workflow as listed. The list itself offers Run, Edit, favourite
 * and Delete.
 */
export const WORKFLOW_MENU = 'switchboards.workflow';

/** The realm of the workflow list's sidebar tag list (tags counted per kind: `workflow`). */
export const WORKFLOW_TAG_REALM = 'workflow';

/** Navigation state: cards or table, and the favourites toggle ('favorites' or ''), kept across reloads. */
export const WORKFLOW_PRESENTATION_KEY = 'workflow_presentation';
export const WORKFLOW_FILTER_KEY = 'workflow_filter';

/** The run panel asks for its execution this often while it runs (ms). */
export const EXECUTION_POLL_MS = 500;

/** The result stage lists at most this many items per output frame and counts the rest. */
export const RESULT_ITEMS_SHOWN = 100;

/** spec 002 §3, docs/api.md "Workflows": the short name — lower case, digits and hyphens. */
export const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]*$/;

/** True when the caller may change the workflow (its reply's `access`). */
export const mayWrite = (w: Pick<Workflow, 'access'>) => !w.access || w.access.includes('write');
/** True when the caller may run the workflow. */
export const mayExecute = (w: Pick<Workflow, 'access'>) => !w.access || w.access.includes('execute');
