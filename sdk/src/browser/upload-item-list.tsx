import type { ReactNode } from 'react';
import { ProgressBar, Tag } from '@blueprintjs/core';
import { observer } from 'mobx-react-lite';
import { formatBytes } from '../common/byte-size';
import type { UploadItem, UploadRefusal, UploadStatus } from './upload-queue';

const STATUS_INTENT = { queued: 'none', uploading: 'primary', success: 'success', failed: 'danger' } as const;

export interface UploadItemListProps {
  items: UploadItem[];
  /** The reader's language, for the file sizes. */
  language: string;
  /** The screen's own words for a status and for a refusal decided in the browser. */
  statusLabel(status: UploadStatus): string;
  refusalLabel(refusal: UploadRefusal): string;
  /** data-testid of each row (it carries `data-status`). */
  itemTestId: string;
  /** Shown above the rows (e.g. the batch status), and below them (e.g. actions). */
  header?: ReactNode;
  footer?: ReactNode;
}

/**
 * The files of an upload (spec 000 §2 "File upload"), one row each: path, size, status, a progress
 * bar while it uploads and the reason when it failed. Renders nothing without items. An observer:
 * `items` may be a store's observable list that grows in place.
 */
export const UploadItemList = observer(function UploadItemList({
  items,
  language,
  statusLabel,
  refusalLabel,
  itemTestId,
  header,
  footer,
}: UploadItemListProps) {
  if (!items.length) return null;
  return (
    <div className="wb-upload-list">
      {header}
      {items.map((item) => (
        <div key={item.key} className="wb-upload-item" data-testid={itemTestId} data-status={item.status}>
          <span className="wb-upload-name" title={item.path}>
            {item.path}
          </span>
          <span className="wb-muted">{formatBytes(item.size, language)}</span>
          <Tag minimal intent={STATUS_INTENT[item.status]}>
            {statusLabel(item.status)}
          </Tag>
          {item.status === 'uploading' && <ProgressBar value={item.progress} intent="primary" />}
          {item.status === 'failed' && (
            <span className="wb-upload-reason">{item.refusal ? refusalLabel(item.refusal) : item.reason}</span>
          )}
        </div>
      ))}
      {footer}
    </div>
  );
});
