import { Tag } from '@blueprintjs/core';

export interface TagRef {
  id: number;
  name: string;
  color?: string;
  icon?: string;
  resource_uri?: string;
}

/** The tags of an object as coloured chips; `onRemove` adds a remove button to each. */
export function TagChips({ tags, onRemove }: { tags: TagRef[] | undefined; onRemove?(tag: TagRef): void }) {
  if (!tags?.length) return null;
  return (
    <div className="wb-chips">
      {tags.map((tag) => (
        <Tag
          key={tag.id}
          round
          icon={(tag.icon || 'tag') as never}
          style={tag.color ? { background: tag.color } : undefined}
          onRemove={onRemove ? (e) => (e.stopPropagation(), onRemove(tag)) : undefined}
          data-testid={`tag-chip-${tag.name}`}
        >
          {tag.name}
        </Tag>
      ))}
    </div>
  );
}
