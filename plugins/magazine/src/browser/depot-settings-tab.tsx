import { FormGroup, HTMLSelect, InputGroup, TextArea } from '@werkbank/sdk/ui';
import { useT } from '@werkbank/sdk/browser';
import { typeNameOf, type Depot } from '../common/magazine-types';
import { DepotFolderSelect } from './depot-folder-select';
import { useTypes } from './use-types';

/**
 * The Settings tab of the depot editor (spec 002 §2): name, description, data type — locked once
 * the depot exists — and folder; all disabled when `readOnly`.
 */
export function DepotSettingsTab({
  depot,
  isNew,
  readOnly = false,
  onChange,
}: {
  depot: Partial<Depot>;
  isNew: boolean;
  readOnly?: boolean;
  onChange(patch: Partial<Depot>): void;
}) {
  const t = useT('magazine');
  const types = useTypes();
  const current = depot.content_type ? typeNameOf(depot.content_type) : '';
  return (
    <>
      <FormGroup label={t('depot.name')} labelFor="depot-name">
        <InputGroup
          id="depot-name"
          autoFocus={!readOnly}
          disabled={readOnly}
          value={depot.name ?? ''}
          onValueChange={(name) => onChange({ name })}
        />
      </FormGroup>
      <FormGroup label={t('depot.description')} labelFor="depot-description">
        <TextArea
          id="depot-description"
          fill
          disabled={readOnly}
          value={depot.description ?? ''}
          onChange={(e) => onChange({ description: e.target.value })}
        />
      </FormGroup>
      <FormGroup label={t('depot.type')} labelFor="depot-type" helperText={isNew ? undefined : t('depot.type_locked')}>
        <HTMLSelect
          id="depot-type"
          fill
          disabled={!isNew || readOnly}
          value={current}
          data-testid="depot-type"
          onChange={(e) => onChange({ content_type: e.target.value })}
        >
          <option value="">{t('depot.choose_type')}</option>
          {!types.some((x) => x.name === current) && current && <option value={current}>{current}</option>}
          {types.map((x) => (
            <option key={x.name} value={x.name}>
              {x.name}
            </option>
          ))}
        </HTMLSelect>
      </FormGroup>
      <FormGroup label={t('depot.folder')} labelFor="depot-folder">
        <DepotFolderSelect
          id="depot-folder"
          disabled={readOnly}
          value={depot.folder ?? null}
          onChange={(folder) => onChange({ folder })}
        />
      </FormGroup>
    </>
  );
}
