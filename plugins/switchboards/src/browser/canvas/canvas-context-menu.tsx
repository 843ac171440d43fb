import { Menu, MenuDivider, MenuItem } from '@werkbank/sdk/ui';
import { typeName } from '../../common/switchboard-types';
import type { CanvasController } from './canvas-controller';
import type { Point } from './canvas-actions';
import { kindOf } from './canvas-store';
import type { SocketRef } from './connection-gesture';
import { portNameOfKey } from './port-slots';

export interface MenuTarget {
  /** `drop`: a link drawn from `socket` and let go over empty canvas. */
  kind: 'canvas' | 'item' | 'link' | 'drop';
  uri?: string;
  socket?: SocketRef;
  at: Point;
}

/**
 * The canvas context menus (spec 000 §2): on empty canvas Add Function, Add data, Add note,
 * Settings; on a selection Delete (with run and open entries for a node or frame); on a link
 * Intermediate function and Disconnect; after a link drawn from a node's port was let go over empty
 * canvas, a new frame of the port's type.
 */
export function CanvasContextMenu({ c, target, close }: { c: CanvasController; target: MenuTarget; close(): void }) {
  const t = c.t;
  const writable = c.store.writable;
  const act = (f: () => unknown) => () => {
    close();
    void f();
  };
  if (target.kind === 'canvas') {
    return (
      <Menu data-testid="canvas-menu">
        <MenuItem
          icon="function"
          text={t('menu.add_function')}
          disabled={!writable}
          onClick={act(() => c.openDialog({ kind: 'insert', mode: 'function', at: target.at }))}
        />
        <MenuItem
          icon="database"
          text={t('menu.add_data')}
          disabled={!writable}
          onClick={act(() => c.openDialog({ kind: 'insert', mode: 'data', at: target.at }))}
        />
        <MenuItem
          icon="comment"
          text={t('menu.add_note')}
          disabled={!writable}
          onClick={act(() => c.openDialog({ kind: 'insert', mode: 'note', at: target.at }))}
        />
        <MenuItem icon="cog" text={t('menu.settings')} onClick={act(() => c.openDialog({ kind: 'settings' }))} />
      </Menu>
    );
  }
  if (target.kind === 'drop') {
    const socket = target.socket!;
    const node = c.store.nodes.get(socket.uri);
    const port = node?.ports.find((p) => p.is_input === (socket.side === 'input') && p.name === portNameOfKey(socket.key));
    return (
      <Menu data-testid="drop-menu">
        <MenuItem
          icon="new-object"
          text={t(socket.side === 'input' ? 'menu.new_input_frame' : 'menu.new_output_frame', {
            type: port ? typeName(port.content_type) : '',
          })}
          disabled={!writable || !port}
          data-testid="drop-new-frame"
          onClick={act(() => c.createFrameFor(socket, target.at))}
        />
      </Menu>
    );
  }
  if (target.kind === 'link') {
    const uri = target.uri!;
    return (
      <Menu data-testid="link-menu">
        <MenuItem
          icon="add"
          text={t('menu.add_function')}
          disabled={!writable}
          onClick={act(() => c.openDialog({ kind: 'insert', mode: 'function', at: target.at }))}
        />
        <MenuItem
          icon="function"
          text={t('menu.intermediate')}
          disabled={!writable}
          onClick={act(() => c.openDialog({ kind: 'intermediate', link: uri }))}
        />
        <MenuItem
          icon="disable"
          text={t('menu.disconnect')}
          disabled={!writable}
          onClick={act(() => c.guard(c.actions.disconnect(uri)))}
        />
      </Menu>
    );
  }
  const uris = c.selection.length ? c.selection : [target.uri!];
  const single = uris.length === 1 ? uris[0] : undefined;
  const kind = single ? kindOf(single) : undefined;
  return (
    <Menu data-testid="selection-menu">
      {kind === 'node' && (
        <>
          <MenuItem
            icon="play"
            text={t('menu.run_node')}
            disabled={!c.store.executable}
            onClick={act(() => c.runNode(single!, false))}
          />
          <MenuItem
            icon="fast-forward"
            text={t('menu.run_from_here')}
            disabled={!c.store.executable}
            onClick={act(() => c.runNode(single!, true))}
          />
          <MenuItem
            icon="info-sign"
            text={t('menu.node_info')}
            onClick={act(() => c.openDialog({ kind: 'node', uri: single! }))}
          />
          <MenuDivider />
        </>
      )}
      {kind === 'frame' && (
        <>
          <MenuItem icon="th" text={t('menu.open_frame')} onClick={act(() => c.openDialog({ kind: 'frame', uri: single! }))} />
          <MenuDivider />
        </>
      )}
      {kind === 'note' && (
        <>
          <MenuItem
            icon="edit"
            text={t('menu.edit_note')}
            disabled={!writable}
            onClick={act(() => c.openDialog({ kind: 'note', uri: single! }))}
          />
          <MenuDivider />
        </>
      )}
      <MenuItem
        icon="trash"
        intent="danger"
        text={uris.length > 1 ? t('menu.delete_n', { count: uris.length }) : t('menu.delete')}
        disabled={!writable}
        onClick={act(() => c.deleteSelection(uris))}
      />
    </Menu>
  );
}
