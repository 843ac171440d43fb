import { useEffect, useRef, useState } from '@werkbank/sdk/react';
import { Button, Callout } from '@werkbank/sdk/ui';
import { ApiClient, I18nService, useService, useT } from '@werkbank/sdk/browser';
import { viewPreviewPath, type ViewScene } from '../common/view-scene';
import type { CameraPosition } from '../common/view-tree';
import type { View } from '../common/view-types';
import { PREVIEW_CAMERA_MESSAGE, PREVIEW_READY_MESSAGE, PREVIEW_SCENE_MESSAGE } from '../common/views-ids';

/** The preview follows the draft this long after its last change. */
export const PREVIEW_DEBOUNCE_MS = 300;

/**
 * The live preview beside the view editor: the viewer in a frame (same origin) that shows the
 * unsaved draft. Each change is sent to the server's preview call, which answers the scene as the
 * viewer would load it; the scene goes to the frame by message. The frame reports its camera back.
 */
export function ViewPreview({ view, onCamera }: { view: View; onCamera(camera: CameraPosition): void }) {
  const api = useService(ApiClient);
  const i18n = useService(I18nService);
  const t = useT('views');
  const frame = useRef<HTMLIFrameElement>(null);
  const scene = useRef<ViewScene | null>(null);
  const [shown, setShown] = useState(true);
  const [error, setError] = useState<string>();
  const send = () =>
    frame.current?.contentWindow?.postMessage({ type: PREVIEW_SCENE_MESSAGE, scene: scene.current }, location.origin);
  const camera = useRef(onCamera);
  camera.current = onCamera;
  useEffect(() => {
    const listen = (e: MessageEvent) => {
      if (e.origin !== location.origin || e.source !== frame.current?.contentWindow) return;
      const data = e.data as { type?: string; camera?: CameraPosition };
      if (data?.type === PREVIEW_READY_MESSAGE && scene.current) send();
      if (data?.type === PREVIEW_CAMERA_MESSAGE && data.camera) camera.current(data.camera);
    };
    window.addEventListener('message', listen);
    return () => window.removeEventListener('message', listen);
  }, []);
  const draft = JSON.stringify({
    name: view.name,
    subline: view.subline,
    description: view.description,
    image: view.image,
    home: view.home,
    layergroup: view.layergroup,
    poigroup: view.poigroup,
    config: view.config,
  });
  useEffect(() => {
    const timer = setTimeout(() => {
      api.post<ViewScene>(viewPreviewPath(view.id), JSON.parse(draft)).then(
        (s) => {
          setError(undefined);
          scene.current = s;
          send();
        },
        (e: Error) => setError(e.message),
      );
    }, PREVIEW_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [api, view.id, draft]);
  return (
    <section className="wb-view-preview" aria-label={String(t('editor.preview_title'))} data-testid="view-preview">
      <div className="wb-toolbar">
        <strong>{t('editor.preview')}</strong>
        <Button
          size="small"
          variant="minimal"
          icon={shown ? 'eye-off' : 'eye-open'}
          text={t(shown ? 'editor.preview_hide' : 'editor.preview_show')}
          onClick={() => setShown(!shown)}
        />
      </div>
      {error && <Callout intent="warning">{error}</Callout>}
      {shown && (
        <iframe
          ref={frame}
          title={String(t('editor.preview_title'))}
          src={`/viewer/${view.id}/?preview=1&lang=${i18n.language}`}
          data-testid="view-preview-frame"
        />
      )}
    </section>
  );
}
