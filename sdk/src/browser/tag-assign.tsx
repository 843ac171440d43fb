import { useEffect, useState } from 'react';
import { Button, Menu, MenuItem, PopoverNext, Icon } from '@blueprintjs/core';
import { observer } from 'mobx-react-lite';
import { ApiClient, ConfigStore, NotificationService, useService, useT, type ListResponse } from '@werkbank/kernel/browser';
import { TagChips, type TagRef } from './tag-chips';

const TAGS = '/api/v2/backend/tags/';

/** The tags one may assign (spec 000 §7 "assign-to"), loaded when the tags component is on. */
export function useAssignableTags(open: boolean): TagRef[] {
  const api = useService(ApiClient);
  const config = useService(ConfigStore);
  const [tags, setTags] = useState<TagRef[]>([]);
  useEffect(() => {
    if (!open || !config.isEnabled('tags')) return;
    api
      .get<ListResponse<TagRef>>(TAGS, { query: { limit: 1000, order_by: 'name' } })
      .then((r) => setTags(r.objects))
      .catch(() => setTags([]));
  }, [api, config, open]);
  return tags;
}

async function assign(api: ApiClient, tag: TagRef, addresses: string[]) {
  await api.patch(`${TAGS}${tag.id}/assign-to/`, {}, { query: { resource_ids: addresses.join(',') } });
}

/** Multi-select menu entries: put a tag on every selected object ('Tagged' on success). */
export const TagAssignMenuItems = observer(function TagAssignMenuItems({
  addresses,
  onDone,
}: {
  addresses: string[];
  onDone(): void;
}) {
  const api = useService(ApiClient);
  const config = useService(ConfigStore);
  const notifications = useService(NotificationService);
  const t = useT();
  const tags = useAssignableTags(config.isEnabled('tags'));
  if (!config.isEnabled('tags')) return null;
  return (
    <MenuItem icon="tag" text={t('tags.assign')} disabled={!addresses.length} data-testid="assign-tag-menu">
      {tags.length === 0 && <MenuItem disabled text={t('tags.none')} />}
      {tags.map((tag) => (
        <MenuItem
          key={tag.id}
          icon={<Icon icon={(tag.icon || 'tag') as never} color={tag.color} />}
          text={tag.name}
          data-testid={`assign-tag-${tag.name}`}
          onClick={() =>
            assign(api, tag, addresses).then(
              () => (notifications.success(String(t('tags.tagged'))), onDone()),
              (e: Error) => notifications.error(e.message),
            )
          }
        />
      ))}
    </MenuItem>
  );
});

/** An object's tags with remove buttons and an add button; 'No tags assigned' when it has none. */
export const ObjectTags = observer(function ObjectTags({
  address,
  tags,
  onChange,
  readOnly,
}: {
  address: string;
  tags: TagRef[] | undefined;
  onChange(): void;
  readOnly?: boolean;
}) {
  const api = useService(ApiClient);
  const config = useService(ConfigStore);
  const notifications = useService(NotificationService);
  const t = useT();
  const [open, setOpen] = useState(false);
  const all = useAssignableTags(open);
  if (!config.isEnabled('tags')) return null;
  const fail = (e: Error) => notifications.error(e.message);
  const remove = (tag: TagRef) =>
    api
      .patch(`${TAGS}${tag.id}/remove_from/`, {}, { query: { object: address } })
      .then(() => (notifications.success(String(t('tags.removed'))), onChange()), fail);
  const add = (tag: TagRef) =>
    assign(api, tag, [address]).then(() => (notifications.success(String(t('tags.tagged'))), setOpen(false), onChange()), fail);
  const present = new Set((tags ?? []).map((x) => x.id));
  return (
    <div className="wb-object-tags" onClick={(e) => e.stopPropagation()}>
      {tags?.length ? (
        <TagChips tags={tags} onRemove={readOnly ? undefined : remove} />
      ) : (
        <span className="wb-muted">{t('tags.none_assigned')}</span>
      )}
      {!readOnly && (
        <PopoverNext
          isOpen={open}
          onInteraction={setOpen}
          content={
            <Menu>
              {all.filter((x) => !present.has(x.id)).length === 0 && <MenuItem disabled text={t('tags.none')} />}
              {all
                .filter((x) => !present.has(x.id))
                .map((tag) => (
                  <MenuItem
                    key={tag.id}
                    icon={<Icon icon={(tag.icon || 'tag') as never} color={tag.color} />}
                    text={tag.name}
                    onClick={() => add(tag)}
                  />
                ))}
            </Menu>
          }
        >
          <Button size="small" variant="minimal" icon="add" aria-label={String(t('tags.add'))} data-testid="add-tag" />
        </PopoverNext>
      )}
    </div>
  );
});
