import { useEffect, useState } from 'react';
import { Button, H6, Icon, Menu, MenuItem } from '@blueprintjs/core';
import { observer } from 'mobx-react-lite';
import { ApiClient, ConfigStore, NavigationStore, useService, useT, type ListResponse } from '@werkbank/kernel/browser';
import type { TagRef } from './tag-chips';

interface RealmTag extends TagRef {
  intent: 'system' | 'user';
  counts: Record<string, number>;
}

type PerRealm = Record<string, number[]>;

/**
 * The sidebar tag list of a realm (spec 000 §2): tags used in the realm with their counts; a click
 * makes a tag active (the list shows only objects with every active tag); pinned tags stay on top.
 * Active and pinned tags are the persisted navigation keys active_tags and pinned_tags. System
 * tags show only with show_system_tags. Hidden when the tags component is off.
 */
export const RealmTagList = observer(function RealmTagList({
  realm,
  onChange,
  reloadKey,
}: {
  realm: string;
  onChange(activeTagIds: number[]): void;
  reloadKey?: unknown;
}) {
  const api = useService(ApiClient);
  const config = useService(ConfigStore);
  const nav = useService(NavigationStore);
  const t = useT();
  const [tags, setTags] = useState<RealmTag[]>([]);
  const enabled = config.isEnabled('tags');
  const showSystem = nav.get<boolean>('show_system_tags', false);
  const active = nav.get<PerRealm>('active_tags', {})[realm] ?? [];
  const pinned = nav.get<PerRealm>('pinned_tags', {})[realm] ?? [];

  useEffect(() => {
    if (!enabled) return;
    api
      .get<ListResponse<RealmTag>>('/api/v2/backend/tags/', { query: { realm, limit: 1000, order_by: 'name' } })
      .then((r) => setTags(r.objects))
      .catch(() => setTags([]));
  }, [api, realm, enabled, reloadKey]);

  if (!enabled) return null;
  const setFor = (key: 'active_tags' | 'pinned_tags', ids: number[]) => {
    nav.set(key, { ...nav.get<PerRealm>(key, {}), [realm]: ids });
    if (key === 'active_tags') onChange(ids);
  };
  const toggle = (list: number[], id: number) => (list.includes(id) ? list.filter((x) => x !== id) : [...list, id]);
  const visible = tags
    .filter((tag) => showSystem || tag.intent !== 'system' || active.includes(tag.id))
    .sort((a, b) => Number(pinned.includes(b.id)) - Number(pinned.includes(a.id)) || a.name.localeCompare(b.name));
  return (
    <div className="wb-realm-tags" data-testid={`realm-tags-${realm}`}>
      <H6>{t('tags.title')}</H6>
      {visible.length === 0 ? (
        <p className="wb-muted">{t('tags.none')}</p>
      ) : (
        <Menu>
          {visible.map((tag) => (
            <MenuItem
              key={tag.id}
              active={active.includes(tag.id)}
              icon={<Icon icon={(tag.icon || 'tag') as never} color={tag.color} />}
              text={tag.name}
              label={String(tag.counts?.[realm] ?? 0)}
              onClick={() => setFor('active_tags', toggle(active, tag.id))}
              labelElement={
                <Button
                  size="small"
                  variant="minimal"
                  icon={pinned.includes(tag.id) ? 'pin' : 'unpin'}
                  aria-label={String(pinned.includes(tag.id) ? t('tags.unpin') : t('tags.pin'))}
                  onClick={(e) => (e.stopPropagation(), setFor('pinned_tags', toggle(pinned, tag.id)))}
                />
              }
            />
          ))}
        </Menu>
      )}
    </div>
  );
});
