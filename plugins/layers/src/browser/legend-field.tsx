import { useRef, useState } from '@werkbank/sdk/react';
import { Button, Callout, FormGroup } from '@werkbank/sdk/ui';
import { ApiClient, NotificationService, replyError, useService, useT } from '@werkbank/sdk/browser';
import type { Layer } from '../common/layers-api';
import type { LegendUpload } from '../common/legend';
import { LegendUploadTransport } from './legend-upload-transport';

/**
 * The legend of the Settings tab (spec 001 §2.2, decision 0063): the stored image, Upload/Replace
 * (a PNG file, stored at once like tags, not with Save) and Remove. The server checks the file;
 * its warnings (width outside 130–140 px, no transparency) are shown in the user's language and
 * the legend is kept. `onChanged` gets the new legend address ('' when removed).
 *
 * Keyboard: while a file goes up the input stays focusable (aria-disabled, choosing is blocked)
 * rather than disabled, so the focus does not fall back to the page; after Remove it moves to the
 * input. Warnings and the refusal are announced (status, alert).
 */
export function LegendField({
  layer,
  readOnly,
  onChanged,
}: {
  layer: Layer;
  readOnly: boolean;
  onChanged(legend: string): void;
}) {
  const t = useT('layers');
  const api = useService(ApiClient);
  const transport = useService(LegendUploadTransport);
  const notifications = useService(NotificationService);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [warnings, setWarnings] = useState<string[]>([]);
  const [version, setVersion] = useState(0);
  const input = useRef<HTMLInputElement>(null);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    setWarnings([]);
    try {
      await work();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const upload = (file: File) =>
    run(async () => {
      const reply = await transport.send(`${layer.resource_uri}legend/`, [['file', file, file.name]], () => undefined);
      const refused = replyError(reply);
      if (refused) throw new Error(refused);
      const body = JSON.parse(reply.text) as LegendUpload;
      setWarnings(body.warnings.map((w) => w.message));
      setVersion((v) => v + 1);
      onChanged(body.legend);
      notifications.success(String(t('legend.uploaded')));
    });
  const remove = () =>
    run(async () => {
      await api.delete(`${layer.resource_uri}legend/`);
      onChanged('');
      notifications.success(String(t('legend.removed')));
      // The Remove button is gone now: the keyboard focus continues on the upload.
      input.current?.focus();
    });

  return (
    <FormGroup label={t('settings.legend')} helperText={t('settings.legend_help')}>
      <div className="wb-form-row" data-testid="layer-legend">
        {layer.legend ? (
          <img
            src={version ? `${layer.legend}?v=${version}` : layer.legend}
            alt={String(t('legend.alt', { name: layer.name }))}
            data-testid="layer-legend-image"
            style={{
              maxWidth: 160,
              maxHeight: 240,
              background: 'repeating-conic-gradient(#ddd 0 25%, #fff 0 50%) 0 0 / 12px 12px',
            }}
          />
        ) : (
          <span className="wb-muted">{t('legend.none')}</span>
        )}
        {!readOnly && (
          <>
            <label htmlFor="layer-legend-file">{t(layer.legend ? 'legend.replace' : 'legend.upload')}</label>
            <input
              ref={input}
              id="layer-legend-file"
              type="file"
              accept="image/png,.png"
              aria-disabled={busy || undefined}
              data-testid="layer-legend-file"
              onClick={(e) => {
                if (busy) e.preventDefault();
              }}
              onChange={(e) => {
                const file = e.target.files?.[0];
                e.target.value = '';
                if (file && !busy) void upload(file);
              }}
            />
            {!!layer.legend && (
              <Button
                icon="trash"
                disabled={busy}
                text={t('legend.remove')}
                data-testid="layer-legend-remove"
                onClick={() => void remove()}
              />
            )}
          </>
        )}
      </div>
      {/* Always there, so that the warnings an upload brings are announced. */}
      <div role="status">
        {warnings.map((w) => (
          <Callout key={w} intent="warning" data-testid="layer-legend-warning">
            {w}
          </Callout>
        ))}
      </div>
      {error && (
        <Callout intent="danger" role="alert" data-testid="layer-legend-error">
          {error}
        </Callout>
      )}
    </FormGroup>
  );
}
