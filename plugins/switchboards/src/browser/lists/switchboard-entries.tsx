import type { ReactNode } from '@werkbank/sdk/react';
import { MenuDivider, MenuItem, Tag } from '@werkbank/sdk/ui';
import {
  ActionMenu,
  NavigationStore,
  TagChips,
  observer,
  useService,
  useT,
  type ListColumn,
  type TagRef,
} from '@werkbank/sdk/browser';
import type { Switchboard } from '../../common/switchboard-types';
import { mayWrite, SHOW_SYSTEM_TAGS_KEY } from './switchboard-list-ids';
import { ScheduleInfo, SwitchboardProgress, SwitchboardStatusTag } from './switchboard-status';

/** A tag as a taggable kind's replies carry it (docs/api.md "tag"). */
export interface SwitchboardTag extends TagRef {
  intent?: 'system' | 'user';
}

/** A switchboard as the list replies it: its `tags` are tag objects while the tags component is on. */
export type ListedSwitchboard = Omit<Switchboard, 'tags'> & { tags?: SwitchboardTag[] };

export interface SwitchboardEntryActions {
  open(sb: ListedSwitchboard): void;
  settings(sb: ListedSwitchboard): void;
  duplicate(sb: ListedSwitchboard): void;
  saveAsFile(sb: ListedSwitchboard): void;
  favor(sb: ListedSwitchboard): void;
  remove(sb: ListedSwitchboard): void;
}

/**
 * The menu of a switchboard card or row: Open, Settings, Duplicate, Save as file, favourite, and
 * Delete only when the caller may change it.
 */
export function SwitchboardMenu({ sb, actions }: { sb: ListedSwitchboard; actions: SwitchboardEntryActions }) {
  const t = useT('sb-lists');
  return (
    <ActionMenu label={String(t('switchboard.menu'))} testId={`switchboard-menu-${sb.id}`}>
      <MenuItem icon="flow-branch" text={t('switchboard.open')} onClick={() => actions.open(sb)} />
      <MenuItem icon="cog" text={t('switchboard.settings')} onClick={() => actions.settings(sb)} />
      <MenuItem icon="duplicate" text={t('switchboard.duplicate')} onClick={() => actions.duplicate(sb)} />
      <MenuItem icon="download" text={t('switchboard.save_as_file')} onClick={() => actions.saveAsFile(sb)} />
      <MenuItem
        icon={sb.favored ? 'star' : 'star-empty'}
        text={t(sb.favored ? 'core:common.unfavor' : 'core:common.favor')}
        onClick={() => actions.favor(sb)}
      />
      {mayWrite(sb) && (
        <>
          <MenuDivider />
          <MenuItem icon="trash" intent="danger" text={t('core:common.delete')} onClick={() => actions.remove(sb)} />
        </>
      )}
    </ActionMenu>
  );
}

/** The tags of a switchboard; system tags only with "Show system tags" on (spec 000 §6). */
export const SwitchboardTags = observer(function SwitchboardTags({ tags }: { tags: SwitchboardTag[] | undefined }) {
  const nav = useService(NavigationStore);
  const showSystem = nav.get<boolean>(SHOW_SYSTEM_TAGS_KEY, false);
  return <TagChips tags={tags?.filter((tag) => showSystem || tag.intent !== 'system')} />;
});

/** The table's columns: name, status, progress, schedule, tags, last change, menu. */
export function switchboardColumns(
  t: (k: string) => unknown,
  fmt: (iso?: string) => string,
  menu: (sb: ListedSwitchboard) => ReactNode,
): ListColumn<ListedSwitchboard>[] {
  return [
    { id: 'name', name: String(t('switchboard.name')), fill: true, width: 200, render: (sb) => sb.name },
    {
      id: 'status',
      name: String(t('switchboard.status')),
      width: 170,
      render: (sb) => <SwitchboardStatusTag status={sb.status} />,
    },
    { id: 'progress', name: String(t('switchboard.progress')), width: 170, render: (sb) => <SwitchboardProgress sb={sb} /> },
    { id: 'schedule', name: String(t('switchboard.schedule')), width: 260, render: (sb) => <ScheduleInfo sb={sb} /> },
    { id: 'tags', name: String(t('switchboard.tags')), width: 200, render: (sb) => <SwitchboardTags tags={sb.tags} /> },
    { id: 'modified', name: String(t('switchboard.modified')), width: 170, render: (sb) => fmt(sb.modified) },
    { id: 'menu', name: '', width: 50, render: menu },
  ];
}

/** The body of a switchboard card: name, favourite mark, menu; status, progress, schedule, tags, description. */
export function SwitchboardCard({ sb, menu }: { sb: ListedSwitchboard; menu: ReactNode }) {
  const t = useT('sb-lists');
  return (
    <>
      <div className="wb-object-card-head">
        <span className="wb-object-card-title">{sb.name}</span>
        {sb.favored && <Tag minimal icon="star" aria-label={String(t('core:common.favorites'))} />}
        {menu}
      </div>
      <div className="wb-toolbar" style={{ flexWrap: 'wrap', rowGap: 4 }}>
        <SwitchboardStatusTag status={sb.status} />
        <SwitchboardProgress sb={sb} />
      </div>
      <ScheduleInfo sb={sb} />
      {sb.description && <div className="wb-muted wb-clamp">{sb.description}</div>}
      <SwitchboardTags tags={sb.tags} />
    </>
  );
}
