import { useState } from '@werkbank/sdk/react';
import { FormGroup, InputGroup, TextArea } from '@werkbank/sdk/ui';
import { useT } from '@werkbank/sdk/browser';
import { safeImageUrl } from './safe-image-url';
import { SLUG_PATTERN } from './workflow-ids';

export interface WorkflowSettings {
  name: string;
  description: string;
  image: string;
  slug: string;
}

/** True when the short name is empty (none) or follows its rule (spec 002 §3). */
export const slugValid = (slug: string) => !slug || SLUG_PATTERN.test(slug);

/**
 * The Settings tab of the workflow editor (spec 002 §2): name, description, image (an address,
 * previewed) and short name (`slug`: lower case letters, digits and hyphens); all disabled when
 * `readOnly`.
 */
export function WorkflowSettingsTab({
  value,
  readOnly = false,
  onChange,
}: {
  value: WorkflowSettings;
  readOnly?: boolean;
  onChange(patch: Partial<WorkflowSettings>): void;
}) {
  const t = useT('sb-workflows');
  const [broken, setBroken] = useState<string>();
  const slugOk = slugValid(value.slug);
  return (
    <>
      <FormGroup label={t('workflow.name')} labelFor="workflow-name" labelInfo={t('editor.required')}>
        <InputGroup
          id="workflow-name"
          autoFocus={!readOnly}
          disabled={readOnly}
          value={value.name}
          onValueChange={(name) => onChange({ name })}
        />
      </FormGroup>
      <FormGroup label={t('workflow.description')} labelFor="workflow-description">
        <TextArea
          id="workflow-description"
          fill
          disabled={readOnly}
          value={value.description}
          onChange={(e) => onChange({ description: e.target.value })}
        />
      </FormGroup>
      <FormGroup label={t('workflow.image')} labelFor="workflow-image" helperText={t('editor.image_help')}>
        <InputGroup
          id="workflow-image"
          type="url"
          disabled={readOnly}
          placeholder="https://…"
          value={value.image}
          onValueChange={(image) => onChange({ image })}
        />
      </FormGroup>
      {value.image && (
        <div className="wb-file-preview wb-gap" data-testid="workflow-image-preview">
          {broken === value.image || !safeImageUrl(value.image) ? (
            <p className="wb-muted">{t('editor.image_broken')}</p>
          ) : (
            <img
              src={safeImageUrl(value.image)}
              alt={String(t('editor.image_preview'))}
              style={{ maxHeight: 160 }}
              onError={() => setBroken(value.image)}
            />
          )}
        </div>
      )}
      <FormGroup
        label={t('workflow.slug')}
        labelFor="workflow-slug"
        intent={slugOk ? 'none' : 'danger'}
        helperText={t(slugOk ? 'editor.slug_help' : 'editor.slug_invalid')}
      >
        <InputGroup
          id="workflow-slug"
          disabled={readOnly}
          intent={slugOk ? 'none' : 'danger'}
          value={value.slug}
          onValueChange={(slug) => onChange({ slug })}
        />
      </FormGroup>
    </>
  );
}
