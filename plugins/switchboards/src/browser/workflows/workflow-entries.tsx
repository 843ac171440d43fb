import type { ReactNode } from '@werkbank/sdk/react';
import { MenuItem, Tag } from '@werkbank/sdk/ui';
import { ActionMenu, ContributedMenuItems, TagChips, observer, useT, type ListColumn, type TagRef } from '@werkbank/sdk/browser';
import type { Workflow } from '../../common/switchboard-types';
import { safeImageUrl } from './safe-image-url';
import { mayExecute, mayWrite, WORKFLOW_MENU } from './workflow-ids';

/** A workflow as the list shows it: with its tags while the tags component is on. */
export type ListedWorkflow = Workflow & { tags?: TagRef[] };

export interface WorkflowEntryActions {
  run(workflow: ListedWorkflow): void;
  edit(workflow: ListedWorkflow): void;
  favor(workflow: ListedWorkflow): void;
  remove(workflow: ListedWorkflow): void;
}

/** The frames' names, joined ('—' when there are none). */
const names = (frames: Array<{ name: string }> | undefined) => frames?.map((f) => f.name || '?').join(', ') || '—';

/**
 * The menu of a workflow card or row (spec 000 §2 "/workflows/"): Run (with a switchboard, to who
 * may execute it), Edit and Delete (to who may change it), favourite, then the entries other
 * plugins contribute to WORKFLOW_MENU with the workflow as target.
 */
export const WorkflowMenu = observer(function WorkflowMenu({
  workflow,
  actions,
}: {
  workflow: ListedWorkflow;
  actions: WorkflowEntryActions;
}) {
  const t = useT('sb-workflows');
  const writable = mayWrite(workflow);
  return (
    <ActionMenu label={String(t('list.menu'))} testId={`workflow-menu-${workflow.id}`}>
      {mayExecute(workflow) && workflow.switchboard && (
        <MenuItem icon="play" text={t('list.run')} data-testid="workflow-run" onClick={() => actions.run(workflow)} />
      )}
      {writable && (
        <MenuItem icon="edit" text={t('core:common.edit')} data-testid="workflow-edit" onClick={() => actions.edit(workflow)} />
      )}
      <MenuItem
        icon={workflow.favored ? 'star' : 'star-empty'}
        text={t(workflow.favored ? 'core:common.unfavor' : 'core:common.favor')}
        data-testid="workflow-favor"
        onClick={() => actions.favor(workflow)}
      />
      {writable && (
        <MenuItem
          icon="trash"
          intent="danger"
          text={t('core:common.delete')}
          data-testid="workflow-delete"
          onClick={() => actions.remove(workflow)}
        />
      )}
      <ContributedMenuItems menu={WORKFLOW_MENU} target={workflow} namespace="sb-workflows" />
    </ActionMenu>
  );
});

/** The workflow table's columns: name, description, inputs, results, tags (while the tags component is on), menu. */
export function workflowColumns(
  t: (k: string) => unknown,
  tags: boolean,
  menu: (w: ListedWorkflow) => ReactNode,
): ListColumn<ListedWorkflow>[] {
  return [
    { id: 'name', name: String(t('workflow.name')), fill: true, width: 160, render: (w) => w.name },
    { id: 'description', name: String(t('workflow.description')), width: 200, render: (w) => w.description },
    { id: 'inputs', name: String(t('list.inputs')), width: 120, render: (w) => names(w.input_frames) },
    { id: 'outputs', name: String(t('list.outputs')), width: 120, render: (w) => names(w.output_frames) },
    ...(tags
      ? [{ id: 'tags', name: String(t('list.tags')), width: 120, render: (w: ListedWorkflow) => <TagChips tags={w.tags} /> }]
      : []),
    { id: 'menu', name: '', width: 50, render: menu },
  ];
}

/** The body of a workflow card: image, name, favourite mark and menu; description; inputs and results; tags. */
export function WorkflowCard({ workflow, menu }: { workflow: ListedWorkflow; menu: ReactNode }) {
  const t = useT('sb-workflows');
  return (
    <>
      {safeImageUrl(workflow.image) && (
        <img className="wb-workflow-image" src={safeImageUrl(workflow.image)} alt="" height={96} style={{ maxWidth: '100%' }} />
      )}
      <div className="wb-object-card-head">
        <span className="wb-object-card-title">{workflow.name}</span>
        {workflow.favored && <Tag minimal icon="star" aria-label={String(t('core:common.favorites'))} />}
        {menu}
      </div>
      {workflow.description && <div className="wb-muted wb-clamp">{workflow.description}</div>}
      {workflow.switchboard ? (
        <div className="wb-muted">
          {t('list.inputs')}: {names(workflow.input_frames)} · {t('list.outputs')}: {names(workflow.output_frames)}
        </div>
      ) : (
        <div className="wb-muted">{t('list.no_switchboard')}</div>
      )}
      <TagChips tags={workflow.tags} />
    </>
  );
}
