import { Callout, FormGroup, HTMLSelect, InputGroup, Radio, RadioGroup, TextArea } from '@werkbank/sdk/ui';
import { ConfigStore, observer, useService, useT } from '@werkbank/sdk/browser';
import type { FrameDialogStore } from '../frame-dialog-store';
import { isDeferredStorage, isOtherStorage, OTHER_STORAGE, type StorageKind } from './storage-context';

/** The component that offers parquet storage (spec 001 §2.6: only when the backend enables it). */
export const PARQUET_COMPONENT = 'parquet';

/**
 * The Settings tab (spec 001 §2.6): the data type (a change warns that the current data will be
 * lost), the storage (django by default, deferred, parquet when enabled, or one of the others),
 * and the input/output mode for workflows with its name and description (shown unless None).
 * Values are kept until saved with the footer's buttons.
 */
export const FrameSettingsTab = observer(function FrameSettingsTab({ store }: { store: FrameDialogStore }) {
  const t = useT('sb-frame');
  const config = useService(ConfigStore);
  const draft = store.settings;
  if (!draft) return null;
  const disabled = store.readOnly || store.busy;
  const parquet = config.isEnabled(PARQUET_COMPONENT);
  const names = [...new Set([...store.types.map((x) => x.name), draft.typeName])].sort();
  const main: string = isOtherStorage(draft.storage) ? 'other' : draft.storage;
  return (
    <div data-testid="frame-settings" style={{ maxWidth: 560 }}>
      <FormGroup label={t('settings.type')} labelFor="frame-settings-type">
        <HTMLSelect
          id="frame-settings-type"
          value={draft.typeName}
          disabled={disabled}
          options={names}
          onChange={(e) => draft.set('typeName', e.currentTarget.value)}
          data-testid="frame-settings-type"
        />
      </FormGroup>
      {draft.typeChanged && store.content.total > 0 && (
        <Callout intent="warning" icon="warning-sign" data-testid="frame-type-warning" className="wb-gap">
          {t('settings.type_warning', { count: store.content.total })}
        </Callout>
      )}
      <RadioGroup
        label={t('settings.storage')}
        selectedValue={main}
        disabled={disabled}
        onChange={(e) =>
          draft.set('storage', e.currentTarget.value === 'other' ? OTHER_STORAGE[0] : (e.currentTarget.value as StorageKind))
        }
      >
        <Radio value="django" label={String(t('settings.storage_django'))} data-testid="frame-storage-django" />
        <Radio value="deferred" label={String(t('settings.storage_deferred'))} />
        {(parquet || draft.storage === 'parquet') && (
          <Radio value="parquet" label={String(t('settings.storage_parquet'))} data-testid="frame-storage-parquet" />
        )}
        <Radio value="other" label={String(t('settings.storage_other'))} data-testid="frame-storage-other" />
      </RadioGroup>
      {isOtherStorage(draft.storage) && (
        <HTMLSelect
          value={draft.storage}
          disabled={disabled}
          options={OTHER_STORAGE.map((k) => ({ value: k, label: String(t(`settings.storage_${k}`)) }))}
          onChange={(e) => draft.set('storage', e.currentTarget.value as StorageKind)}
          data-testid="frame-storage-select"
          className="wb-gap"
        />
      )}
      {isDeferredStorage({ kind: draft.storage }) && <p className="wb-muted">{t('settings.deferred_hint')}</p>}
      <RadioGroup
        label={t('settings.mode')}
        selectedValue={String(draft.frameType)}
        disabled={disabled}
        onChange={(e) => draft.set('frameType', Number(e.currentTarget.value) as 0 | 1 | 2)}
      >
        <Radio value="0" label={String(t('settings.mode_none'))} data-testid="frame-mode-0" />
        <Radio value="1" label={String(t('settings.mode_input'))} data-testid="frame-mode-1" />
        <Radio value="2" label={String(t('settings.mode_output'))} data-testid="frame-mode-2" />
      </RadioGroup>
      {draft.frameType !== 0 && (
        <div data-testid="frame-mode-fields">
          <FormGroup label={t('settings.name')} labelFor="frame-settings-name" helperText={t('settings.name_help')}>
            <InputGroup
              id="frame-settings-name"
              value={draft.name}
              disabled={disabled}
              onValueChange={(v) => draft.set('name', v)}
              data-testid="frame-settings-name"
            />
          </FormGroup>
          <FormGroup label={t('settings.description')} labelFor="frame-settings-description">
            <TextArea
              id="frame-settings-description"
              fill
              rows={3}
              value={draft.description}
              disabled={disabled}
              onChange={(e) => draft.set('description', e.currentTarget.value)}
              data-testid="frame-settings-description"
            />
          </FormGroup>
        </div>
      )}
    </div>
  );
});
