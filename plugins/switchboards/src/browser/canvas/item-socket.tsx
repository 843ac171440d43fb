import { ReactPresets } from '@werkbank/sdk/canvas';
import type { CanvasItem } from './rete-canvas';
import type { SocketEmit } from './canvas-view-context';

/** The handle of an input or output of a canvas item, registered with Rete (it measures where links end). */
export function ItemSocket({
  item,
  emit,
  side,
  socketKey,
}: {
  item: CanvasItem;
  emit: SocketEmit;
  side: 'input' | 'output';
  socketKey: string;
}) {
  const payload = side === 'input' ? item.inputs[socketKey]?.socket : item.outputs[socketKey]?.socket;
  if (!payload) return null;
  return (
    <ReactPresets.classic.RefSocket
      data-testid={`${side}-socket`}
      name={`${side}-socket`}
      side={side}
      emit={emit}
      socketKey={socketKey}
      nodeId={item.id}
      payload={payload}
    />
  );
}
