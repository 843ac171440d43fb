import { Tag } from '@werkbank/sdk/ui';
import { I18nService, TypeHierarchy, useService, useT } from '@werkbank/sdk/browser';
import type { FrameItem, FrameKind } from './frame-kind';
import { formatBytes, formatNumber, formatValue } from './value-format';
import { frameFileLink } from '../../common/frame-file-url';

/** Image files up to this size get a thumbnail on their card (spec 001 §2.7, "limit not shown"). */
export const THUMBNAIL_MAX_BYTES = 2 * 1024 * 1024;

const text = (v: unknown) => (typeof v === 'string' ? v : '');

/** True when a file datum's card shows its image. */
export function hasThumbnail(item: FrameItem): boolean {
  return (
    text(item.mime_type).startsWith('image/') &&
    typeof item.size === 'number' &&
    item.size <= THUMBNAIL_MAX_BYTES &&
    !!(frameFileLink(item.embed_url) || frameFileLink(item.download_url))
  );
}

export interface DatumCardBodyProps {
  item: FrameItem;
  kind: FrameKind;
  chain: string[];
  typeName: string;
}

/**
 * A datum on a card, read-only (spec 001 §2.7): a file's thumbnail (images up to 2 MiB), name,
 * size, type and download link; a colour's swatch; a feature's geometry type and properties;
 * numbers with up to 20 fraction digits; anything else as its type's text representation.
 */
export function DatumCardBody({ item, kind, chain, typeName }: DatumCardBodyProps) {
  const t = useT('sb-frame');
  const types = useService(TypeHierarchy);
  const language = useService(I18nService).language;
  if (kind === 'file') {
    // Only the server's frame file addresses become links and images (a datum's fields can be edited).
    const link = frameFileLink(item.download_url);
    return (
      <div className="wb-object-card" data-testid="frame-card-file">
        {hasThumbnail(item) && (
          <img
            src={frameFileLink(item.embed_url) || link}
            alt={text(item.value)}
            loading="lazy"
            style={{ maxWidth: '100%', maxHeight: 140, objectFit: 'contain' }}
            data-testid="frame-card-thumbnail"
          />
        )}
        <span className="wb-object-card-title" title={text(item.value)}>
          {text(item.value)}
        </span>
        <span className="wb-muted">
          {formatBytes(item.size, language)} · {text(item.mime_type)}
        </span>
        {link && (
          <a href={link} download={text(item.value).split('/').pop()}>
            {t('cards.download')}
          </a>
        )}
      </div>
    );
  }
  if (chain.includes('color')) {
    return (
      <div className="wb-object-card-head">
        <span style={{ width: 24, height: 24, borderRadius: 4, background: text(item.hex), border: '1px solid #c5cbd3' }} />
        <span className="wb-object-card-title">{text(item.hex)}</span>
      </div>
    );
  }
  if (kind === 'feature') {
    const feature = (item.feature ?? {}) as { geometry?: { type?: string } | null; properties?: Record<string, unknown> };
    const props = Object.entries(feature.properties ?? {});
    return (
      <div className="wb-object-card">
        <Tag minimal icon="map-marker">
          {feature.geometry?.type ?? t('cards.no_geometry')}
        </Tag>
        {props.map(([k, v]) => (
          <div key={k} className="wb-object-card-head">
            <span className="wb-muted">{k}</span>
            <span title={formatValue(v, language)}>{formatValue(v, language)}</span>
          </div>
        ))}
      </div>
    );
  }
  const repr =
    kind === 'value' && typeof item.value === 'number' ? formatNumber(item.value, language) : types.reprOf(typeName, item);
  return (
    <span className="wb-object-card-title" title={repr}>
      {repr || t('cards.empty_value')}
    </span>
  );
}
