import { useState } from '@werkbank/sdk/react';
import { Button, Icon, Menu, MenuItem, PopoverNext } from '@werkbank/sdk/ui';
import { ConfigStore, TagChips, observer, useAssignableTags, useService, useT, type TagRef } from '@werkbank/sdk/browser';

/**
 * Chooses tags for an object that does not exist yet (the new-switchboard form): the chosen ones
 * as chips with a remove button, an add button listing the others. Nothing while the tags component
 * is off.
 */
export const TagPicker = observer(function TagPicker({ value, onChange }: { value: TagRef[]; onChange(tags: TagRef[]): void }) {
  const config = useService(ConfigStore);
  const t = useT('sb-lists');
  const [open, setOpen] = useState(false);
  const all = useAssignableTags(open);
  if (!config.isEnabled('tags')) return null;
  const chosen = new Set(value.map((tag) => tag.id));
  const others = all.filter((tag) => !chosen.has(tag.id));
  return (
    <div className="wb-object-tags" data-testid="tag-picker">
      {value.length ? (
        <TagChips tags={value} onRemove={(tag) => onChange(value.filter((x) => x.id !== tag.id))} />
      ) : (
        <span className="wb-muted">{t('core:tags.none_assigned')}</span>
      )}
      <PopoverNext
        isOpen={open}
        onInteraction={setOpen}
        content={
          <Menu>
            {others.length === 0 && <MenuItem disabled text={t('core:tags.none')} />}
            {others.map((tag) => (
              <MenuItem
                key={tag.id}
                icon={<Icon icon={(tag.icon || 'tag') as never} color={tag.color} />}
                text={tag.name}
                data-testid={`pick-tag-${tag.name}`}
                onClick={() => (onChange([...value, tag]), setOpen(false))}
              />
            ))}
          </Menu>
        }
      >
        <Button size="small" variant="minimal" icon="add" aria-label={String(t('core:tags.add'))} data-testid="pick-tag" />
      </PopoverNext>
    </div>
  );
});
