import { useEffect, useRef } from '@werkbank/sdk/react';
import type { CanvasItem } from './rete-canvas';
import type { SocketEmit } from './canvas-view-context';
import { CanvasSocket } from './link-view';

type Signal = Parameters<SocketEmit>[0];

/**
 * The handle of an input or output of a canvas item, registered with Rete (it measures where links
 * end and starts connection gestures on it). Drawn in the item's own React tree: Rete's RefSocket
 * would give every socket a React root of its own, rendered synchronously — thousands of them on a
 * big switchboard (bench/canvas). The same DOM as RefSocket's and the same signals: `render` once
 * (already filled, so the React plugin leaves it alone), `rendered` after every render of the item
 * (its size may have changed: Rete measures the socket again) and `unmount` when it goes.
 */
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
  const ref = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element || !payload) return;
    emit({
      type: 'render',
      data: { type: 'socket', side, key: socketKey, nodeId: item.id, element, payload, filled: true },
    } as Signal);
    return () => emit({ type: 'unmount', data: { element } } as Signal);
  }, [emit, side, socketKey, item.id, payload]);
  useEffect(() => {
    const element = ref.current;
    if (!element || !payload) return;
    emit({ type: 'rendered', data: { type: 'socket', side, key: socketKey, nodeId: item.id, element, payload } } as Signal);
  });
  if (!payload) return null;
  return (
    <span ref={ref} className={`${side}-socket`} data-testid={`${side}-socket`}>
      <span>
        <CanvasSocket />
      </span>
    </span>
  );
}
