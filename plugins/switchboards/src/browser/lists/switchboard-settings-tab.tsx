import { FormGroup, InputGroup, TextArea } from '@werkbank/sdk/ui';
import { ConfigStore, ObjectTags, observer, useService, useT } from '@werkbank/sdk/browser';
import type { ListedSwitchboard } from './switchboard-entries';

/**
 * The Settings tab of the switchboard editor (spec 002 §2): name, description and — when the tags
 * component is on (spec 002 §6) — its tags, which are put on and taken off at once.
 */
export const SwitchboardSettingsTab = observer(function SwitchboardSettingsTab({
  sb,
  readOnly,
  onChange,
  onTagsChanged,
}: {
  sb: Partial<ListedSwitchboard> & { resource_uri: string };
  readOnly: boolean;
  onChange(patch: Partial<ListedSwitchboard>): void;
  onTagsChanged(): void;
}) {
  const t = useT('sb-lists');
  const config = useService(ConfigStore);
  return (
    <>
      <FormGroup label={t('switchboard.name')} labelFor="switchboard-name">
        <InputGroup
          id="switchboard-name"
          autoFocus={!readOnly}
          disabled={readOnly}
          value={sb.name ?? ''}
          onValueChange={(name) => onChange({ name })}
        />
      </FormGroup>
      <FormGroup label={t('switchboard.description')} labelFor="switchboard-description">
        <TextArea
          id="switchboard-description"
          fill
          rows={4}
          disabled={readOnly}
          value={sb.description ?? ''}
          onChange={(e) => onChange({ description: e.target.value })}
        />
      </FormGroup>
      {config.isEnabled('tags') && (
        <FormGroup label={t('switchboard.tags')}>
          <ObjectTags address={sb.resource_uri} tags={sb.tags} readOnly={readOnly} onChange={onTagsChanged} />
        </FormGroup>
      )}
    </>
  );
});
