import { FormGroup, InputGroup } from '@werkbank/sdk/ui';
import { ApiClient, formatBytes, I18nService, ImageDropZone, NotificationService, useService, useT } from '@werkbank/sdk/browser';
import { VIEW_IMAGE_MAX_BYTES, VIEW_IMAGE_TYPES, viewImageAddress } from '../common/view-image';
import type { View } from '../common/view-types';
import { ViewImageUploadTransport } from './view-image-upload-transport';

/**
 * The preview image of the Settings tab (spec 002 §2, decision 0092): the image drop zone uploads
 * a PNG, JPEG, WebP or GIF to `{view}image/` and Remove clears the image, both stored at once (like
 * tags, not with Save: `onStored` gets the stored `image`); the address field below takes the
 * address of an image elsewhere into the draft (saved with Save).
 */
export function ViewImageField({
  view,
  readOnly,
  onChange,
  onStored,
}: {
  view: View;
  readOnly: boolean;
  onChange(image: string): void;
  onStored(image: string): void;
}) {
  const t = useT('views');
  const api = useService(ApiClient);
  const transport = useService(ViewImageUploadTransport);
  const notifications = useService(NotificationService);
  const language = useService(I18nService).language;
  const size = formatBytes(VIEW_IMAGE_MAX_BYTES, language);
  return (
    <>
      <FormGroup label={t('settings.image')} helperText={readOnly ? undefined : t('settings.image_help')}>
        <ImageDropZone
          value={view.image.trim()}
          uploadUrl={viewImageAddress(view.id)}
          transport={transport}
          replyField="image"
          types={VIEW_IMAGE_TYPES}
          maxBytes={VIEW_IMAGE_MAX_BYTES}
          readOnly={readOnly}
          testId="view-image"
          labels={{
            drop: String(t('image.drop')),
            choose: String(t('image.choose')),
            hint: String(t('image.hint', { size })),
            none: String(t('image.none')),
            alt: String(t('image.alt', { name: view.name })),
            remove: String(t('image.remove')),
            uploading: String(t('image.uploading')),
            wrongType: String(t('image.errors.type')),
            tooLarge: String(t('image.errors.too_large', { limit: size })),
          }}
          onUploaded={(image) => {
            onStored(image);
            notifications.success(String(t('image.uploaded')));
          }}
          onRemove={async () => {
            await api.delete(viewImageAddress(view.id));
            onStored('');
            notifications.success(String(t('image.removed')));
          }}
        />
      </FormGroup>
      <FormGroup label={t('settings.image_address')} labelFor="view-image-address" helperText={t('settings.image_address_help')}>
        <InputGroup
          id="view-image-address"
          disabled={readOnly}
          value={view.image}
          data-testid="view-image-address"
          onValueChange={(image) => onChange(image)}
        />
      </FormGroup>
    </>
  );
}
