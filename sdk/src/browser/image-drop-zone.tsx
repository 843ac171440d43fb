import { useRef, useState } from 'react';
import { Button, Callout, ProgressBar } from '@blueprintjs/core';
import { FileDropZone } from './file-drop-zone';
import type { UploadFile } from './upload-queue';
import { replyError, type UploadTransport } from './upload-transport';

export interface ImageDropZoneProps {
  /** The image's address now ('' for none); the thumbnail shows it when it is an http(s) or server (/…) address. */
  value: string;
  /** Where a dropped or chosen image is posted: multipart, one `file` part, through `transport`. */
  uploadUrl: string;
  transport: UploadTransport;
  /** The field of the upload's JSON reply that holds the stored image's address. */
  replyField: string;
  /** Media types offered by the chooser; a file of another declared type is refused here. The server decides by content. */
  types: readonly string[];
  /** Larger files are refused here, without a request. */
  maxBytes: number;
  /** After a successful upload: the stored image's address and the whole reply. */
  onUploaded(address: string, reply: Record<string, unknown>): void;
  /** Removes the image; a rejection's message is shown. Without it there is no Remove button. */
  onRemove?(): Promise<void>;
  /** The screen's own words; `wrongType` and `tooLarge` are the refusals made before sending. */
  labels: {
    drop: string;
    choose: string;
    hint: string;
    none: string;
    alt: string;
    remove: string;
    uploading: string;
    wrongType: string;
    tooLarge: string;
  };
  /** Only the thumbnail, no upload or removal. */
  readOnly?: boolean;
  /** data-testid of the whole; its parts add `-zone`, `-input`, `-image`, `-remove`, `-error`. */
  testId: string;
}

/** An address a thumbnail may load: on this server or on the web (not data:, javascript:, …). */
export const isImageAddress = (value: string): boolean => value.startsWith('/') || /^https?:\/\//i.test(value);

/**
 * The image drop zone of spec 000 §2 ("posts to a configured upload address and receives a
 * filename"): the current image as a thumbnail, a zone to drop one image on or a button to choose
 * it (keyboard: the button opens the file chooser), the upload with its progress, the server's
 * refusal (reason of the reply) as an alert, and Remove. One upload at a time: files dropped or
 * chosen while one goes up are ignored. After Remove the focus moves to the choose button.
 */
export function ImageDropZone(props: ImageDropZoneProps) {
  const { value, labels, readOnly, testId } = props;
  const choose = useRef<HTMLButtonElement>(null);
  const running = useRef(false);
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState(0);
  const [error, setError] = useState<string>();
  // The address of the last upload here and how many there were: the thumbnail reloads after each.
  const [fresh, setFresh] = useState({ address: '', count: 0 });

  const run = async (work: () => Promise<void>) => {
    running.current = true;
    setBusy(true);
    setProgress(0);
    setError(undefined);
    try {
      await work();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      running.current = false;
      setBusy(false);
    }
  };
  const upload = (files: UploadFile[]) => {
    const file = files[0];
    if (!file || running.current) return;
    if (file.type && !props.types.includes(file.type)) return setError(labels.wrongType);
    if (file.size > props.maxBytes) return setError(labels.tooLarge);
    void run(async () => {
      const reply = await props.transport.send(props.uploadUrl, [['file', file, file.name]], setProgress);
      const refused = replyError(reply);
      if (refused) throw new Error(refused);
      const body = JSON.parse(reply.text) as Record<string, unknown>;
      const address = String(body[props.replyField] ?? '');
      setFresh((f) => ({ address, count: f.count + 1 }));
      props.onUploaded(address, body);
    });
  };
  const remove = () =>
    void run(async () => {
      await props.onRemove!();
      // The Remove button goes with the image: the keyboard focus continues on the upload.
      choose.current?.focus();
    });

  const src = !isImageAddress(value)
    ? ''
    : fresh.count && value === fresh.address
      ? `${value}${value.includes('?') ? '&' : '?'}v=${fresh.count}`
      : value;
  return (
    <div className="wb-image-drop" data-testid={testId}>
      {src ? (
        <img className="wb-image-drop-thumb" src={src} alt={labels.alt} data-testid={`${testId}-image`} />
      ) : (
        <span className="wb-muted">{labels.none}</span>
      )}
      {!readOnly && (
        <div className="wb-image-drop-controls">
          <FileDropZone
            labels={{ drop: labels.drop, choose: labels.choose, hint: labels.hint }}
            onFiles={upload}
            testId={`${testId}-zone`}
            inputTestId={`${testId}-input`}
            accept={props.types.join(',')}
            multiple={false}
            chooseRef={choose}
          />
          {busy && <ProgressBar value={progress} intent="primary" />}
          {/* Always there, so that the upload is announced. */}
          <div role="status" className="wb-muted">
            {busy ? labels.uploading : ''}
          </div>
          {!!value && props.onRemove && (
            <Button icon="trash" text={labels.remove} disabled={busy} data-testid={`${testId}-remove`} onClick={remove} />
          )}
          {error && (
            <Callout intent="danger" role="alert" data-testid={`${testId}-error`}>
              {error}
            </Callout>
          )}
        </div>
      )}
    </div>
  );
}
