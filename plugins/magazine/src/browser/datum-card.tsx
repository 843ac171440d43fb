import type { ReactNode } from '@werkbank/sdk/react';
import { formatBytes, I18nService, useService, useT } from '@werkbank/sdk/browser';
import { typeNameOf, type Datum } from '../common/magazine-types';
import { DownloadLink } from './datum-columns';

/** The body of a datum card: a file's name, size, type and download link; else its text and type. */
export function DatumCard({ datum, isFile, menu }: { datum: Datum; isFile: boolean; menu: ReactNode }) {
  const t = useT('magazine');
  const i18n = useService(I18nService);
  return (
    <>
      <div className="wb-object-card-head">
        <span className="wb-object-card-title" title={datum.text_repr}>
          {isFile ? String(datum.value ?? datum.text_repr) : datum.text_repr || t('datum.empty')}
        </span>
        {menu}
      </div>
      {isFile ? (
        <div className="wb-muted">
          {formatBytes(datum.size as number, i18n.language)} · {String(datum.mime_type ?? '')} ·{' '}
          <DownloadLink datum={datum} label={String(t('file.download'))} />
        </div>
      ) : (
        <div className="wb-muted">{typeNameOf(datum.content_type)}</div>
      )}
    </>
  );
}
