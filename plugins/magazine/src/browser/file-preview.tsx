import { useEffect, useState } from '@werkbank/sdk/react';
import { Spinner } from '@werkbank/sdk/ui';
import { useT } from '@werkbank/sdk/browser';
import { PREVIEW_HEIGHT, previewKind } from '../common/file-preview';

export interface FilePreviewProps {
  name: string;
  mime?: string;
  size?: number;
  /** Inline address of the bytes (the datum's embed_url). */
  embedUrl?: string;
  /** Address of the bytes as a download (for text, fetched and shown). */
  downloadUrl?: string;
}

/** Text previews: the file's text, fetched once. A failed fetch silently ends the loading (spec 001 §8). */
function TextPreview({ url }: { url: string }) {
  const [text, setText] = useState<string>();
  const [loading, setLoading] = useState(true);
  useEffect(() => {
    const abort = new AbortController();
    setLoading(true);
    fetch(url, { credentials: 'same-origin', signal: abort.signal })
      .then((res) => (res.ok ? res.text() : undefined))
      .then((t) => setText(t))
      .catch(() => undefined)
      .finally(() => !abort.signal.aborted && setLoading(false));
    return () => abort.abort();
  }, [url]);
  if (loading) return <Spinner size={24} />;
  if (text === undefined) return null;
  return (
    <pre className="wb-file-preview-text" data-testid="file-preview-text">
      {text}
    </pre>
  );
}

/**
 * The file editor's preview (spec 001 §2.5): images, PDF and text types up to PREVIEW_MAX_BYTES, in
 * a box 400 px high; nothing for other files.
 */
export function FilePreview({ name, mime, size, embedUrl, downloadUrl }: FilePreviewProps) {
  const t = useT('magazine');
  const kind = previewKind(mime, size);
  if (!kind || !embedUrl) return null;
  return (
    <figure className="wb-file-preview" style={{ height: PREVIEW_HEIGHT }} data-testid="file-preview" data-kind={kind}>
      {kind === 'image' && <img src={embedUrl} alt={name} />}
      {kind === 'pdf' && <iframe src={embedUrl} title={String(t('file.preview_of', { name }))} />}
      {kind === 'text' && <TextPreview url={downloadUrl ?? embedUrl} />}
    </figure>
  );
}
