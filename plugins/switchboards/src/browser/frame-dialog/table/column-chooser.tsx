import { Button, Checkbox, PopoverNext, Tag } from '@werkbank/sdk/ui';
import { observer, useT } from '@werkbank/sdk/browser';
import { badgeText, type ColumnVisibility } from './column-visibility';

export interface ColumnChooserProps {
  columns: Array<{ id: string; name: string }>;
  visibility: ColumnVisibility;
  /** Columns the table does not show (the badge). */
  hidden: number;
}

/**
 * The column chooser of spec 001 §2.7: a button with the number of hidden columns (capped at
 * '99+', spec 001 §9) that opens a list of the columns to tick; the list follows the filter box.
 */
export const ColumnChooser = observer(function ColumnChooser({ columns, visibility, hidden }: ColumnChooserProps) {
  const t = useT('sb-frame');
  const listed = columns.map((c, i) => ({ ...c, position: i })).filter((c) => visibility.matches(c.name));
  const content = (
    <div style={{ padding: 8, maxHeight: 320, overflow: 'auto', minWidth: 220 }} data-testid="frame-column-list">
      <div className="wb-toolbar">
        <Button
          size="small"
          text={t('table.show_all')}
          onClick={() =>
            visibility.setAll(
              listed.map((c) => c.id),
              true,
            )
          }
        />
        <Button
          size="small"
          text={t('table.hide_all')}
          onClick={() =>
            visibility.setAll(
              listed.map((c) => c.id),
              false,
            )
          }
        />
      </div>
      {listed.map((c) => (
        <Checkbox
          key={c.id}
          label={c.name}
          checked={visibility.isChosen(c.id, c.position)}
          onChange={(e) => visibility.setChosen(c.id, e.currentTarget.checked)}
        />
      ))}
    </div>
  );
  return (
    <PopoverNext content={content} placement="bottom-start">
      <Button icon="column-layout" text={t('table.columns')} data-testid="frame-column-chooser">
        {hidden > 0 && (
          <Tag
            round
            minimal
            intent="primary"
            data-testid="frame-hidden-badge"
            title={String(t('table.hidden', { count: hidden }))}
          >
            {badgeText(hidden)}
          </Tag>
        )}
      </Button>
    </PopoverNext>
  );
});
