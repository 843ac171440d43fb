import { Classes, Dialog } from '@werkbank/sdk/ui';
import { ObjectEditorHost, observer } from '@werkbank/sdk/browser';
import { typeName } from '../../common/switchboard-types';
import { FrameDialog } from '../frame-dialog/frame-dialog';
import { InsertDialog } from '../dialogs/insert-dialog';
import { NodeInfoDialog } from '../dialogs/node-info-dialog';
import { FunctionBrowser } from '../dialogs/function-browser';
import type { CanvasController } from './canvas-controller';
import { NoteDialog } from './note-dialog';

/** The canvas's dialogs (spec 000 §2): insert, frame, node information, note, intermediate function, settings. */
export const CanvasDialogs = observer(function CanvasDialogs({ c }: { c: CanvasController }) {
  const d = c.dialog;
  const close = () => c.openDialog(undefined);
  if (!d) return null;
  switch (d.kind) {
    case 'insert':
      return (
        <InsertDialog
          mode={d.mode}
          onClose={close}
          onInsert={(r) => {
            close();
            void c.insert(r, d.at);
          }}
        />
      );
    case 'frame':
      return (
        <FrameDialog
          frameUri={d.uri}
          initialTab={d.tab}
          readOnly={!c.store.writable}
          onClose={(saved) => {
            close();
            if (saved) void c.store.fetch(d.uri);
          }}
        />
      );
    case 'node': {
      const node = c.store.nodes.get(d.uri);
      if (!node) return null;
      const linked = c.store
        .linksOf(d.uri)
        .filter((l) => l.is_input && l.node === d.uri)
        .map((l) => l.name);
      return (
        <NodeInfoDialog
          node={node}
          initialTab={d.tab}
          linked={linked}
          onChanged={c.store.writable ? (n) => c.store.put(n) : undefined}
          onClose={close}
        />
      );
    }
    case 'note':
      return <NoteDialog c={c} uri={d.uri} onClose={close} />;
    case 'intermediate': {
      const link = c.store.links.get(d.link);
      const frame = link && c.store.frames.get(link.frame);
      const port = link && c.store.nodes.get(link.node)?.ports.find((p) => p.name === link.name && p.is_input === link.is_input);
      if (!link || !frame || !port) return null;
      const [from, to] = link.is_input ? [frame.content_type, port.content_type] : [port.content_type, frame.content_type];
      return (
        <Dialog isOpen title={c.t('menu.intermediate')} onClose={close} style={{ width: 720 }}>
          <div className={Classes.DIALOG_BODY}>
            <p className="wb-muted">{c.t('link.intermediate_hint', { from: typeName(from), to: typeName(to) })}</p>
            <FunctionBrowser
              autoFocus
              inputType={typeName(from)}
              outputType={typeName(to)}
              onSubmit={(f) => {
                close();
                void c.intermediate(d.link, f);
              }}
            />
          </div>
        </Dialog>
      );
    }
    case 'settings':
      return (
        <ObjectEditorHost
          address={c.store.uri}
          onClose={(saved) => {
            close();
            if (saved) void c.store.load();
          }}
        />
      );
  }
});
