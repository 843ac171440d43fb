import { FormGroup, InputGroup } from '@werkbank/sdk/ui';
import { formatBytes, I18nService, useService, useT, type DatumEditorProps } from '@werkbank/sdk/browser';
import { FilePreview } from './file-preview';

interface FileFields {
  value?: string;
  size?: number;
  mime_type?: string;
  download_url?: string;
  embed_url?: string;
}

/**
 * The file editor (spec 001 §2.1): rename, size, type, download and a preview (§2.5). The datum editor for content
 * type `file` and the types deriving from it.
 */
export function FileDatumEditor({ value, readOnly, onChange }: DatumEditorProps) {
  const t = useT('magazine');
  const i18n = useService(I18nService);
  const file = (value && typeof value === 'object' ? value : { value: typeof value === 'string' ? value : '' }) as FileFields;
  return (
    <div data-testid="datum-editor-file">
      <FormGroup label={t('file.name')} labelFor="file-name">
        <InputGroup
          id="file-name"
          readOnly={readOnly}
          value={file.value ?? ''}
          onValueChange={(name) => onChange({ ...file, value: name })}
        />
      </FormGroup>
      <p>
        <span className="wb-muted">{t('file.size')}: </span>
        {formatBytes(file.size, i18n.language)}
        {' · '}
        <span className="wb-muted">{t('file.mime')}: </span>
        {file.mime_type ?? ''}
      </p>
      {file.download_url && (
        <a href={file.download_url} download={file.value} data-testid="file-download">
          {t('file.download')}
        </a>
      )}
      <FilePreview
        name={file.value ?? ''}
        mime={file.mime_type}
        size={file.size}
        embedUrl={file.embed_url}
        downloadUrl={file.download_url}
      />
    </div>
  );
}
