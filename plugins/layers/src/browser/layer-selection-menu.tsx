import { MenuDivider, MenuItem } from '@werkbank/sdk/ui';
import { ApiClient, ConfirmService, useBulkAction, TagAssignMenuItems, useService, useT } from '@werkbank/sdk/browser';
import { LAYER_PATH, type Layer } from '../common/layers-api';
import { cloneBody } from '../common/layer-clone';

/**
 * The multi-select menu of the layer list: tag, clone, delete (spec 000 §8 "Tagged, Cloned,
 * Deleted N items"). Each layer is its own call; the first refusal is shown, the rest still run.
 */
export function LayerSelectionMenu({ layers, onDone }: { layers: Layer[]; onDone(): void }) {
  const api = useService(ApiClient);
  const confirm = useService(ConfirmService);
  const t = useT('layers');
  const each = useBulkAction(layers, onDone, (key, count) => String(t(key, { count })));
  const clone = () =>
    void each((l) => api.post(LAYER_PATH, cloneBody(l, String(t('list.copy_name', { name: l.name })))), 'list.cloned_items');
  const remove = async () => {
    const question = String(t('list.delete_selected_confirm', { count: layers.length }));
    if (!(await confirm.confirm(question, { intent: 'danger', confirmLabel: String(t('core:common.delete')) }))) return;
    await each((l) => api.delete(l.resource_uri), 'list.deleted_items');
  };
  const none = !layers.length;
  return (
    <>
      <TagAssignMenuItems addresses={layers.map((l) => l.resource_uri)} onDone={onDone} />
      <MenuDivider />
      <MenuItem icon="duplicate" text={t('list.clone_selected')} disabled={none} data-testid="layers-clone" onClick={clone} />
      <MenuItem
        icon="trash"
        intent="danger"
        text={t('list.delete_selected')}
        disabled={none}
        data-testid="layers-delete"
        onClick={() => void remove()}
      />
    </>
  );
}
