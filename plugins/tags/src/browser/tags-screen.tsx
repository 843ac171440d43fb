import { useEffect, useMemo, useState } from '@werkbank/sdk/react';
import { Button, H2, Icon, Menu, MenuItem, PopoverNext, Tag as BpTag } from '@werkbank/sdk/ui';
import { observer } from '@werkbank/sdk/react';
import {
  ApiClient,
  ConfigStore,
  Licensed,
  NavigationStore,
  ObjectEditorHost,
  ObjectList,
  useObjectActions,
  ResourceListStore,
  SearchBar,
  useService,
  useT,
  type ListColumn,
  type Presentation,
} from '@werkbank/sdk/browser';
import { TAGS_PATH, tagChangeRefusal, type Tag } from '../common/tag-rules';

/** The tag list at /tags/: search, system-tags toggle, cards or table, create, edit, delete. */
const TagList = observer(function TagList() {
  const api = useService(ApiClient);
  const config = useService(ConfigStore);
  const nav = useService(NavigationStore);
  const t = useT('tags');
  const store = useMemo(() => new ResourceListStore<Tag>(api, TAGS_PATH, 50), [api]);
  const [text, setText] = useState('');
  const [editing, setEditing] = useState<string>();
  const presentation = nav.get<Presentation>('tag_presentation', 'table');
  const showSystem = nav.get<boolean>('show_system_tags', false);

  const reload = () => void store.reload().catch(() => undefined);
  useEffect(() => {
    store.setQuery({ order_by: 'name', filter: showSystem ? undefined : 'user' });
    reload();
  }, [store, showSystem]);

  const objectActions = useObjectActions(store);
  const remove = (tag: Tag) => objectActions.remove(tag, String(t('list.delete_confirm', { name: tag.name })));
  const usage = (tag: Tag) => Object.values(tag.counts ?? {}).reduce((a, b) => a + b, 0);
  const actions = (tag: Tag) => {
    const locked = !!tagChangeRefusal(tag.intent, config.isSuperuser);
    return (
      <PopoverNext
        content={
          <Menu>
            <MenuItem icon="edit" text={t('core:common.edit')} onClick={() => setEditing(tag.resource_uri)} />
            <MenuItem icon="trash" intent="danger" disabled={locked} text={t('core:common.delete')} onClick={() => remove(tag)} />
          </Menu>
        }
      >
        <Button size="small" variant="minimal" icon="more" aria-label="menu" onClick={(e) => e.stopPropagation()} />
      </PopoverNext>
    );
  };
  const columns: ListColumn<Tag>[] = [
    {
      id: 'name',
      name: String(t('editor.name')),
      width: 260,
      render: (tag) => (
        <span>
          <Icon icon={(tag.icon || 'tag') as never} color={tag.color} /> {tag.name}
        </span>
      ),
    },
    {
      id: 'color',
      name: String(t('list.colour')),
      width: 120,
      render: (tag) => (
        <span>
          <span className="wb-swatch" style={{ background: tag.color }} /> {tag.color}
        </span>
      ),
    },
    {
      id: 'intent',
      name: String(t('list.intent')),
      width: 120,
      render: (tag) => String(t(tag.intent === 'system' ? 'list.system' : 'list.user')),
    },
    { id: 'usage', name: String(t('list.usage')), width: 100, render: (tag) => String(usage(tag)) },
    { id: 'actions', name: '', width: 60, render: actions },
  ];
  return (
    <div className="wb-page">
      <div className="wb-toolbar">
        <H2>{t('list.title')}</H2>
        <Button intent="primary" icon="add" text={t('list.new')} data-testid="new-tag" onClick={() => setEditing(TAGS_PATH)} />
      </div>
      <SearchBar
        value={text}
        onChange={setText}
        onSubmit={(q) => void store.search(q).catch(() => undefined)}
        presentation={presentation}
        onPresentationChange={(p) => nav.set('tag_presentation', p)}
        showSystemTags={showSystem}
        onShowSystemTagsChange={(on) => nav.set('show_system_tags', on)}
      />
      <ObjectList
        store={store}
        presentation={presentation}
        columns={columns}
        emptyText={String(t('list.empty'))}
        onOpen={(tag) => setEditing(tag.resource_uri)}
        renderCard={(tag) => (
          <>
            <div className="wb-object-card-head">
              <BpTag round icon={(tag.icon || 'tag') as never} style={{ background: tag.color }}>
                {tag.name}
              </BpTag>
              <span className="wb-object-card-title" />
              {actions(tag)}
            </div>
            <div className="wb-muted">
              {t(tag.intent === 'system' ? 'list.system' : 'list.user')} · {t('list.usage')}: {usage(tag)}
            </div>
          </>
        )}
      />
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

export default function TagsScreen() {
  return (
    <Licensed component="tags">
      <TagList />
    </Licensed>
  );
}
