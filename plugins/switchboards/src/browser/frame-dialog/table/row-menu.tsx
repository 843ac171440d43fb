import { Button, Menu, MenuItem, PopoverNext } from '@werkbank/sdk/ui';
import { useT } from '@werkbank/sdk/browser';

export interface RowMenuProps {
  readOnly: boolean;
  onOpen(): void;
  onDuplicate(): void;
  onDelete(): void;
}

/** A table row's menu (spec 001 §2.7): open in the Single view; duplicate and delete unless read-only. */
export function RowMenu({ readOnly, onOpen, onDuplicate, onDelete }: RowMenuProps) {
  const t = useT('sb-frame');
  const menu = (
    <Menu>
      <MenuItem icon="document-open" text={t('table.row_open')} onClick={onOpen} />
      {!readOnly && <MenuItem icon="duplicate" text={t('table.row_duplicate')} onClick={onDuplicate} />}
      {!readOnly && <MenuItem icon="trash" intent="danger" text={t('table.row_delete')} onClick={onDelete} />}
    </Menu>
  );
  // Clicks stop here, so the table's cell selection neither sees them nor closes the menu.
  return (
    <span onClick={(e) => e.stopPropagation()} onMouseDown={(e) => e.stopPropagation()}>
      <PopoverNext content={menu} placement="bottom-start">
        <Button
          variant="minimal"
          size="small"
          icon="more"
          aria-label={String(t('table.row_menu'))}
          data-testid="frame-row-menu"
        />
      </PopoverNext>
    </span>
  );
}
