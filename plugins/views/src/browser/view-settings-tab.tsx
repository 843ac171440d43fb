import { Callout, FormGroup, InputGroup, TextArea } from '@werkbank/sdk/ui';
import { ConfigStore, ObjectTags, useService, useT } from '@werkbank/sdk/browser';
import { isValidSlug } from '@werkbank/plugin-layers/api';
import { needsSlugNote } from '../common/view-rules';
import { viewerAddress } from '../common/view-scene';
import type { View } from '../common/view-types';
import { ViewImageField } from './view-image-field';

/** An absolute address for a template path, so it can be copied. */
const absolute = (url: string) => (url.startsWith('/') ? `${location.origin}${url}` : url);

/**
 * The Settings tab (spec 002 §2): title, second title, description, preview image (uploaded or an
 * address; an upload or removal is stored at once, `onImageStored`), short name with the publishing
 * note, the read-only URL from the view URL template, and tags (only with the tags component;
 * stored at once).
 */
export function ViewSettingsTab(props: {
  view: View;
  readOnly: boolean;
  onChange(p: Partial<View>): void;
  onTagsChanged(): void;
  onImageStored(image: string): void;
}) {
  const t = useT('views');
  const config = useService(ConfigStore);
  const { view, readOnly, onChange } = props;
  const slugBad = view.slug !== '' && !isValidSlug(view.slug);
  const template = config.config.viewer_urls?.view;
  return (
    <div data-testid="view-settings">
      <FormGroup label={t('settings.name')} labelFor="view-name">
        <InputGroup id="view-name" disabled={readOnly} value={view.name} onValueChange={(name) => onChange({ name })} />
      </FormGroup>
      <FormGroup label={t('settings.subline')} labelFor="view-subline">
        <InputGroup
          id="view-subline"
          disabled={readOnly}
          value={view.subline}
          onValueChange={(subline) => onChange({ subline })}
        />
      </FormGroup>
      <FormGroup label={t('settings.description')} labelFor="view-description">
        <TextArea
          id="view-description"
          fill
          disabled={readOnly}
          value={view.description}
          onChange={(e) => onChange({ description: e.currentTarget.value })}
        />
      </FormGroup>
      <ViewImageField view={view} readOnly={readOnly} onChange={(image) => onChange({ image })} onStored={props.onImageStored} />
      <FormGroup
        label={t('settings.slug')}
        labelFor="view-slug"
        helperText={slugBad ? t('errors.slug') : t('settings.slug_help')}
        intent={slugBad ? 'danger' : 'none'}
      >
        <InputGroup
          id="view-slug"
          disabled={readOnly}
          intent={slugBad ? 'danger' : 'none'}
          value={view.slug}
          onValueChange={(slug) => onChange({ slug })}
        />
      </FormGroup>
      {needsSlugNote(view) && <Callout intent="warning">{t('settings.slug_note')}</Callout>}
      {template && (
        <FormGroup label={t('settings.url')} labelFor="view-url">
          <InputGroup id="view-url" readOnly value={absolute(viewerAddress(template, view))} data-testid="view-url" />
        </FormGroup>
      )}
      {config.isEnabled('tags') && (
        <FormGroup label={t('settings.tags')}>
          <ObjectTags address={view.resource_uri} tags={view.tags} onChange={props.onTagsChanged} />
        </FormGroup>
      )}
    </div>
  );
}
