import { Button, Callout, H2, Tag } from '@werkbank/sdk/ui';
import { ConfigStore, observer, useService, useT } from '@werkbank/sdk/browser';
import { DepotActionRegistry } from './depot-action-registry';
import { typeNameOf, type Depot, type FolderNode } from '../common/magazine-types';
import { FolderBreadcrumb } from './folder-breadcrumb';

/**
 * The head of the depot screen: folder path, name, type, description, edit and delete, then the
 * actions other plugins contribute (DepotActionContribution, e.g. "Show as layer"). When the
 * caller may not change the depot (`writable` false), edit becomes show (the editor opens
 * read-only), delete is left out and a notice says so, once for the whole screen.
 */
export const DepotHeader = observer(function DepotHeader({
  depot,
  trail,
  writable,
  onEdit,
  onDelete,
}: {
  depot: Depot;
  trail: FolderNode[];
  writable: boolean;
  onEdit(): void;
  onDelete(): void;
}) {
  const t = useT('magazine');
  const config = useService(ConfigStore);
  const target = {
    depot: { id: depot.id, resource_uri: depot.resource_uri, name: depot.name, content_type: depot.content_type },
    readOnly: !writable,
  };
  const actions = useService(DepotActionRegistry).entries('depot', target, {
    isSuperuser: config.isSuperuser,
    isEnabled: (c: string) => config.isEnabled(c),
  });
  return (
    <header data-testid="depot-header">
      <FolderBreadcrumb trail={trail} current={depot.name} />
      <div className="wb-toolbar">
        <H2>{depot.name}</H2>
        <Tag minimal icon="tag" data-testid="depot-type-tag">
          {typeNameOf(depot.content_type)}
        </Tag>
        {writable ? (
          <>
            <Button icon="edit" text={t('core:common.edit')} onClick={onEdit} data-testid="depot-edit" />
            <Button
              icon="trash"
              intent="danger"
              variant="minimal"
              aria-label={String(t('depot.delete'))}
              onClick={onDelete}
              data-testid="depot-delete"
            />
          </>
        ) : (
          <Button icon="eye-open" text={t('depot.show')} onClick={onEdit} data-testid="depot-show" />
        )}
        {actions.map((a) => (
          <Button
            key={a.id}
            icon={a.icon as never}
            variant="outlined"
            text={t(a.label)}
            onClick={() => a.run(target)}
            data-testid={`depot-action-${a.id}`}
          />
        ))}
      </div>
      {depot.description && <p className="wb-muted">{depot.description}</p>}
      {!writable && (
        <Callout intent="primary" icon="lock" className="wb-gap" data-testid="depot-read-only">
          {t('depot.read_only')}
        </Callout>
      )}
    </header>
  );
});
