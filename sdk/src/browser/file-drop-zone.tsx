import { useRef, useState, type Ref } from 'react';
import { Button, Icon } from '@blueprintjs/core';
import type { UploadFile } from './upload-queue';

export interface FileDropZoneProps {
  /** The screen's own words: the drop prompt, the choose button and the hint (e.g. 'up to 5 GB'). */
  labels: { drop: string; choose: string; hint: string };
  /** The files dropped or chosen, once per drop or choice (empty when a drop carried no files). */
  onFiles(files: UploadFile[]): void;
  /** data-testid of the zone and of its hidden file input. */
  testId: string;
  inputTestId: string;
  /** Focus the choose button when the zone mounts (e.g. in a dialog tab). */
  autoFocus?: boolean;
  /** What the file chooser offers (the input's `accept`, e.g. 'image/png,image/jpeg'); drops are not filtered. */
  accept?: string;
  /** Choose several files at once (default true). */
  multiple?: boolean;
  /** The choose button, e.g. to move the focus back to it. */
  chooseRef?: Ref<HTMLButtonElement>;
}

/**
 * The file drop zone of spec 000 §2: drag files onto it or choose them (several at once unless
 * `multiple` is false); it only hands the files on, the caller decides what to do with them.
 */
export function FileDropZone({
  labels,
  onFiles,
  testId,
  inputTestId,
  autoFocus,
  accept,
  multiple = true,
  chooseRef,
}: FileDropZoneProps) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const hand = (list: FileList | null | undefined) => list && onFiles(Array.from(list as ArrayLike<UploadFile>));
  return (
    <div
      className={`wb-dropzone ${over ? 'wb-dropzone-over' : ''}`}
      data-testid={testId}
      onDragOver={(e) => (e.preventDefault(), setOver(true))}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        hand(e.dataTransfer?.files);
      }}
    >
      <Icon icon="cloud-upload" size={24} />
      <span>{labels.drop}</span>
      <Button
        ref={chooseRef}
        icon="folder-open"
        text={labels.choose}
        autoFocus={autoFocus}
        onClick={() => input.current?.click()}
      />
      <span className="wb-muted">{labels.hint}</span>
      <input
        ref={input}
        type="file"
        multiple={multiple}
        accept={accept}
        hidden
        data-testid={inputTestId}
        onChange={(e) => {
          hand(e.currentTarget.files);
          e.currentTarget.value = '';
        }}
      />
    </div>
  );
}
