import { observer } from '@werkbank/sdk/browser';
import type { CanvasViewContext } from './canvas-view-context';

/** The names of other users who selected this object (presence, beyond spec 000). */
export const PresenceMarks = observer(function PresenceMarks({ ctx, uri }: { ctx: CanvasViewContext; uri: string }) {
  const names = [...ctx.store.presence.values()].filter((p) => p.selected === uri).map((p) => p.name);
  if (!names.length) return null;
  return (
    <div className="wb-presence-mark" data-testid="presence-mark">
      {names.join(', ')}
    </div>
  );
});
