import { MenuDivider, MenuItem } from '@werkbank/sdk/ui';
import { ActionMenu, ConfigStore, observer, useService, useT } from '@werkbank/sdk/browser';
import type { DatumMenuTarget } from '../common/magazine-api';
import { DatumCardMenuRegistry } from './datum-card-menu-registry';

export interface DatumCardMenuProps {
  target: DatumMenuTarget;
  /** False for types whose datums come only by upload (files). */
  canDuplicate: boolean;
  /** False when the caller may not change the depot: no duplicate and delete at all. */
  writable: boolean;
  onEdit(): void;
  onDuplicate(): void;
  onDelete(): void;
}

/**
 * The menu of a datum card or row (spec 000 §2 "Datum card with a menu"): edit (show when
 * read-only), duplicate and delete — disabled at an earlier moment, left out when the caller may
 * not change the depot — then the entries other plugins contribute through DatumCardMenuContribution
 * (e.g. 'Use in switchboard').
 */
export const DatumCardMenu = observer(function DatumCardMenu({
  target,
  canDuplicate,
  writable,
  onEdit,
  onDuplicate,
  onDelete,
}: DatumCardMenuProps) {
  const t = useT('magazine');
  const config = useService(ConfigStore);
  const contributed = useService(DatumCardMenuRegistry).entries(target, {
    isSuperuser: config.isSuperuser,
    isEnabled: (c: string) => config.isEnabled(c),
  });
  const ro = target.readOnly;
  return (
    <ActionMenu label={String(t('datum.menu'))} testId="datum-menu">
      <MenuItem icon={ro ? 'eye-open' : 'edit'} text={t(ro ? 'datum.show' : 'core:common.edit')} onClick={onEdit} />
      {writable && (
        <>
          <MenuItem
            icon="duplicate"
            text={t('datum.duplicate')}
            disabled={ro || !canDuplicate}
            onClick={onDuplicate}
            data-testid="datum-duplicate"
          />
          <MenuItem
            icon="trash"
            intent="danger"
            text={t('core:common.delete')}
            disabled={ro}
            onClick={onDelete}
            data-testid="datum-delete"
          />
        </>
      )}
      {contributed.length > 0 && <MenuDivider />}
      {contributed.map((entry) => (
        <MenuItem
          key={entry.id}
          icon={entry.icon as never}
          text={t(entry.label)}
          data-testid={`menu-${entry.id}`}
          onClick={() => entry.run(target)}
        />
      ))}
    </ActionMenu>
  );
});
