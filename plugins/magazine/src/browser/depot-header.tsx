import { Button, H2, Tag } from '@werkbank/sdk/ui';
import { useT } from '@werkbank/sdk/browser';
import { typeNameOf, type Depot, type FolderNode } from '../common/magazine-types';
import { FolderBreadcrumb } from './folder-breadcrumb';

/** The head of the depot screen: folder path, name, type, description, edit and delete. */
export function DepotHeader({
  depot,
  trail,
  onEdit,
  onDelete,
}: {
  depot: Depot;
  trail: FolderNode[];
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
        <Button icon="edit" text={t('core:common.edit')} onClick={onEdit} data-testid="depot-edit" />
        <Button icon="trash" intent="danger" variant="minimal" aria-label={String(t('depot.delete'))} onClick={onDelete} />
      </div>
      {depot.description && <p className="wb-muted">{depot.description}</p>}
    </header>
  );
}
