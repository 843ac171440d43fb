import type { ReactNode } from '@werkbank/sdk/react';
import { formatBytes, type ListColumn } from '@werkbank/sdk/browser';
import type { Datum } from '../common/magazine-types';
import { datumFields } from '../common/datum-fields';

type T = (key: string) => unknown;

/** A field value as cell text: strings as they are, everything else as JSON. */
export const cellText = (v: unknown) => (typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v));

/** The download link of a file datum. */
export function DownloadLink({ datum, label }: { datum: Datum; label: string }) {
  const url = datum.download_url as string | undefined;
  return url ? (
    <a href={url} download={String(datum.value ?? '')} onClick={(e) => e.stopPropagation()} data-testid="datum-download">
      {label}
    </a>
  ) : null;
}

/** spec 001 §2.7: for file depots the name fills the rest, mime 150 px, size and download 85 px each. */
export function fileColumns(t: T, language: string, menu: (d: Datum) => ReactNode): ListColumn<Datum>[] {
  return [
    { id: 'name', name: String(t('file.name')), fill: true, render: (d) => String(d.value ?? d.text_repr) },
    { id: 'mime', name: String(t('file.mime')), width: 150, render: (d) => String(d.mime_type ?? '') },
    { id: 'size', name: String(t('file.size')), width: 85, render: (d) => formatBytes(d.size as number, language) },
    {
      id: 'download',
      name: String(t('file.download')),
      width: 85,
      render: (d) => <DownloadLink datum={d} label={String(t('file.download'))} />,
    },
    { id: 'menu', name: '', width: 50, render: menu },
  ];
}

/**
 * Columns from the type: one per field the loaded datums carry (the only field fills the row), or
 * the text representation when they carry none.
 */
export function fieldColumns(items: Datum[], t: T, menu: (d: Datum) => ReactNode): ListColumn<Datum>[] {
  const keys = [...new Set(items.slice(0, 50).flatMap((d) => Object.keys(datumFields(d))))];
  const columns: ListColumn<Datum>[] = keys.length
    ? keys.map((key) => ({ id: `f-${key}`, name: key, width: 200, fill: keys.length === 1, render: (d) => cellText(d[key]) }))
    : [{ id: 'repr', name: String(t('datum.value')), fill: true, render: (d) => d.text_repr }];
  return [...columns, { id: 'menu', name: '', width: 50, render: menu }];
}
