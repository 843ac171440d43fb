import { useEffect, useMemo, useState } from '@werkbank/sdk/react';
import { Button, H2 } from '@werkbank/sdk/ui';
import {
  ApiClient,
  ConfigStore,
  NavigationStore,
  ObjectEditorHost,
  ObjectList,
  RealmTagList,
  ResourceListStore,
  SearchBar,
  TagAssignMenuItems,
  observer,
  useObjectActions,
  useService,
  useT,
  type Presentation,
} from '@werkbank/sdk/browser';
import { WORKFLOW_PATH } from '../../common/switchboard-types';
import { WorkflowCard, WorkflowMenu, workflowColumns, type ListedWorkflow, type WorkflowEntryActions } from './workflow-entries';
import { WORKFLOW_FILTER_KEY, WORKFLOW_PRESENTATION_KEY, WORKFLOW_TAG_REALM } from './workflow-ids';
import { WorkflowRunPanel } from './workflow-run-panel';

type PerRealm = Record<string, number[]>;

/**
 * The workflow list at /workflows/ (spec 000 §2): search, favourites, cards or table with infinite
 * scroll, the sidebar tag list of the realm 'workflow' (while the tags component is on) and tagging
 * of selected workflows; New workflow; per workflow Run, Edit, favourite and Delete. Selecting a
 * workflow opens its run panel.
 */
const WorkflowListScreen = observer(function WorkflowListScreen() {
  const api = useService(ApiClient);
  const nav = useService(NavigationStore);
  const config = useService(ConfigStore);
  const t = useT('sb-workflows');
  const store = useMemo(() => new ResourceListStore<ListedWorkflow>(api, WORKFLOW_PATH, 40), [api]);
  const objectActions = useObjectActions(store);
  const [text, setText] = useState('');
  const [editing, setEditing] = useState<string>();
  const [running, setRunning] = useState<string>();
  const [version, setVersion] = useState(0);
  const presentation = nav.get<Presentation>(WORKFLOW_PRESENTATION_KEY, 'cards');
  const favorites = nav.get<string>(WORKFLOW_FILTER_KEY, '') === 'favorites';
  // Tagging and the tag filter only while the tags component is on (the server refuses `tag` otherwise).
  const tags = config.isEnabled('tags');

  const reload = () => {
    setVersion((v) => v + 1);
    void store.reload().catch(() => undefined);
  };
  useEffect(() => {
    const active = tags ? (nav.get<PerRealm>('active_tags', {})[WORKFLOW_TAG_REALM] ?? []) : [];
    store.setQuery({
      order_by: 'name',
      filter: favorites ? 'favorites' : undefined,
      tag: active.length ? active.join(',') : undefined,
    });
    void store.reload().catch(() => undefined);
  }, [store, favorites, tags]);

  const actions: WorkflowEntryActions = {
    run: (w) => setRunning(w.resource_uri),
    edit: (w) => setEditing(w.resource_uri),
    favor: (w) => void objectActions.toggleFavor(w),
    remove: (w) => void objectActions.remove(w, String(t('list.delete_confirm', { name: w.name }))),
  };
  const menu = (w: ListedWorkflow) => <WorkflowMenu workflow={w} actions={actions} />;
  return (
    <div className="wb-page" data-testid="workflow-list">
      <div className="wb-toolbar">
        <H2>{t('list.title')}</H2>
        <Button
          icon="add"
          intent="primary"
          text={t('list.new')}
          data-testid="new-workflow"
          onClick={() => setEditing(WORKFLOW_PATH)}
        />
      </div>
      <div className="wb-list-layout">
        <div className="wb-list-main">
          <SearchBar
            value={text}
            onChange={setText}
            onSubmit={(q) => void store.search(q).catch(() => undefined)}
            presentation={presentation}
            onPresentationChange={(p) => nav.set(WORKFLOW_PRESENTATION_KEY, p)}
            favoritesOnly={favorites}
            onFavoritesChange={(on) => nav.set(WORKFLOW_FILTER_KEY, on ? 'favorites' : '')}
            {...(tags && {
              selectedCount: store.selected.size,
              onSelectAll: () => store.selectAll(),
              onClearSelection: () => store.clearSelection(),
              selectionMenu: <TagAssignMenuItems addresses={store.selectedItems.map((w) => w.resource_uri)} onDone={reload} />,
            })}
          />
          <ObjectList
            store={store}
            presentation={presentation}
            columns={workflowColumns(t, tags, menu)}
            selectable={tags}
            emptyText={String(t(store.query.q || favorites ? 'list.no_results' : 'list.empty'))}
            onOpen={actions.run}
            renderCard={(w) => <WorkflowCard workflow={w} menu={menu(w)} />}
          />
        </div>
        <aside className="wb-list-side">
          <RealmTagList
            realm={WORKFLOW_TAG_REALM}
            reloadKey={version}
            onChange={(ids) => {
              store.setQuery({ tag: ids.length ? ids.join(',') : undefined });
              void store.reload().catch(() => undefined);
            }}
          />
        </aside>
      </div>
      {running && <WorkflowRunPanel address={running} onClose={() => setRunning(undefined)} />}
      {editing && (
        <ObjectEditorHost
          address={editing}
          onClose={(saved) => {
            setEditing(undefined);
            if (saved) reload();
          }}
        />
      )}
    </div>
  );
});

export default WorkflowListScreen;
