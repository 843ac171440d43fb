import { Button, Callout, H2, Tag } from '@werkbank/sdk/ui';
import { useT } from '@werkbank/sdk/browser';
import { typeNameOf, type Depot, type FolderNode } from '../common/magazine-types';
import { FolderBreadcrumb } from './folder-breadcrumb';

/**
 * The head of the depot screen: folder path, name, type, description, edit and delete. When the
 * caller may not change the depot (`writable` false), edit becomes show (the editor opens
 * read-only), delete is left out and a notice says so, once for the whole screen.
 */
export function DepotHeader({
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
      </div>
      {depot.description && <p className="wb-muted">{depot.description}</p>}
      {!writable && (
        <Callout intent="primary" icon="lock" className="wb-gap" data-testid="depot-read-only">
          {t('depot.read_only')}
        </Callout>
      )}
    </header>
  );
}
