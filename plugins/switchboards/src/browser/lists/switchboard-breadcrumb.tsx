import { Breadcrumb, Classes } from '@werkbank/sdk/ui';
import { useT } from '@werkbank/sdk/browser';

/**
 * Where the list is: 'Switchboards', then the open folder. The root entry goes back to the root
 * while a folder is open.
 */
export function SwitchboardBreadcrumb({ folder, onRoot }: { folder?: string; onRoot(): void }) {
  const t = useT('sb-lists');
  return (
    <ul className={`${Classes.BREADCRUMBS} wb-gap`} data-testid="switchboard-breadcrumb">
      <li>
        <Breadcrumb
          icon="flow-branch"
          text={String(t('list.title'))}
          current={folder === undefined}
          onClick={folder === undefined ? undefined : onRoot}
        />
      </li>
      {folder !== undefined && (
        <li>
          <Breadcrumb icon="folder-open" text={folder} current />
        </li>
      )}
    </ul>
  );
}
