import { Button, H6, type IconName } from '@blueprintjs/core';
import { observer } from 'mobx-react-lite';
import { useRecentlyUsed, type RecentEntry } from './recently-used';

export interface RecentlyUsedBarProps {
  /** The navigation-state key and length of the list (spec 000 §9), as for useRecentlyUsed. */
  storageKey: string;
  limit: number;
  /** The heading in the screen's words (e.g. 'Recently used'). */
  label: string;
  /** The icon of each entry's button (the object type's). */
  icon: IconName;
  /** data-testid of the bar; each button is `{itemTestId}-{id}`. */
  testId: string;
  itemTestId: string;
  onOpen(entry: RecentEntry): void;
}

/** The user's most recently used objects of a list screen as buttons, newest first; hidden while empty. */
export const RecentlyUsedBar = observer(function RecentlyUsedBar(props: RecentlyUsedBarProps) {
  const recent = useRecentlyUsed(props.storageKey, props.limit);
  const entries = recent.entries;
  if (!entries.length) return null;
  return (
    <div className="wb-toolbar wb-recent" data-testid={props.testId}>
      <H6 className="wb-muted">{props.label}</H6>
      {entries.map((e) => (
        <Button
          key={e.id}
          icon={props.icon}
          variant="outlined"
          text={e.name}
          data-testid={`${props.itemTestId}-${e.id}`}
          onClick={() => props.onOpen(e)}
        />
      ))}
    </div>
  );
});
