import { useState } from '@werkbank/sdk/react';
import type { CanvasViewContext } from './canvas-view-context';
import { PortName } from './node-view';
import { OWN_POINTER } from './canvas-portals';

/**
 * The key of a dict port slot (spec 000 §5): commits on Enter or blur, cancels on Escape. On the
 * empty slot the key is kept for the next connection; on a used slot it renames the key.
 */
export function DictKeyEditor(props: { ctx: CanvasViewContext; node: string; port: string; value: string }) {
  const { ctx, node, port, value } = props;
  const draftKey = `${node}|${port}`;
  const initial = value || ctx.dictDrafts.get(draftKey) || '';
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(initial);
  const commit = () => {
    setEditing(false);
    const key = text.trim();
    if (!value) {
      if (key) ctx.dictDrafts.set(draftKey, key);
      else ctx.dictDrafts.delete(draftKey);
    } else if (key && key !== value) ctx.renameDictKey(node, port, value, key);
    else setText(value);
  };
  if (!editing) {
    return (
      <span
        className={`wb-dict-key${initial ? '' : ' wb-muted'}`}
        data-testid="dict-key"
        {...OWN_POINTER}
        onClick={() => {
          setText(initial);
          setEditing(true);
        }}
      >
        {initial ? <PortName name={initial} /> : ctx.t('node.dict_key_placeholder')}
      </span>
    );
  }
  return (
    <input
      className="bp6-input bp6-small wb-dict-key-input"
      data-testid="dict-key-input"
      autoFocus
      value={text}
      aria-label={ctx.t('node.dict_key')}
      {...OWN_POINTER}
      onChange={(e) => setText(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        e.stopPropagation();
        if (e.key === 'Enter') commit();
        if (e.key === 'Escape') {
          setText(initial);
          setEditing(false);
        }
      }}
    />
  );
}
