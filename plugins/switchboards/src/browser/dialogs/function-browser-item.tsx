import { Button, Icon, Tag } from '@werkbank/sdk/ui';
import { useT } from '@werkbank/sdk/browser';
import { typeName, type FunctionInfo } from '../../common/switchboard-types';

/** The MIME type of a function dragged from the browser onto the canvas; the data is the function's name. */
export const FUNCTION_DRAG_TYPE = 'application/x-werkbank-function';

export interface FunctionBrowserItemProps {
  fn: FunctionInfo;
  selected: boolean;
  onSelect(): void;
  onSubmit(): void;
  onFavorite(): void;
  onNamespace(ns: string): void;
}

/** The first paragraph of a doc text, for the short form in the list. */
export const shortDoc = (doc: string) => doc.trim().split(/\n\s*\n/)[0];

const ports = (list: FunctionInfo['inputs']) =>
  list.map((p) => `${p.name}: ${typeName(p.content_type)}${p.is_list ? '[]' : ''}${p.is_optional ? '?' : ''}`).join(', ');

/**
 * One function in the browser (spec 000 §2): verbose name, name, namespace (click filters by it),
 * short doc, input and output port types, the administrators-only note (spec 000 §6) and a
 * favourite star. Click selects, double-click submits; it can be dragged onto the canvas.
 */
export function FunctionBrowserItem({ fn, selected, onSelect, onSubmit, onFavorite, onNamespace }: FunctionBrowserItemProps) {
  const t = useT('sb-dialogs');
  return (
    <div
      role="option"
      aria-selected={selected}
      id={`function-option-${fn.name}`}
      data-testid="function-item"
      data-name={fn.name}
      draggable
      onDragStart={(e) => {
        e.dataTransfer.setData(FUNCTION_DRAG_TYPE, fn.name);
        e.dataTransfer.effectAllowed = 'copy';
      }}
      onClick={onSelect}
      onDoubleClick={onSubmit}
      style={{
        display: 'flex',
        gap: 8,
        padding: '6px 8px',
        cursor: 'grab',
        borderRadius: 3,
        background: selected ? 'rgba(45, 114, 210, 0.15)' : undefined,
      }}
    >
      <div style={{ flex: '1 1 auto', minWidth: 0 }}>
        <div style={{ display: 'flex', gap: 6, alignItems: 'baseline', flexWrap: 'wrap' }}>
          <strong>{fn.verbose_name || fn.name}</strong>
          <code className="wb-muted">{fn.name}</code>
          <Tag
            minimal
            interactive
            data-testid="function-namespace"
            title={String(t('functions.filter_namespace', { namespace: fn.namespace }))}
            onClick={(e) => (e.stopPropagation(), onNamespace(fn.namespace))}
          >
            {fn.namespace}
          </Tag>
        </div>
        {fn.doc && <div className="wb-clamp">{shortDoc(fn.doc)}</div>}
        <div className="wb-muted" data-testid="function-ports">
          {t('functions.ports', { inputs: ports(fn.inputs) || '–', outputs: ports(fn.outputs) || '–' })}
        </div>
        {fn.superuser_required && (
          <div data-testid="function-superuser" className="wb-muted">
            <Icon icon="lock" size={12} /> {t('functions.superuser_only')}
          </div>
        )}
      </div>
      <Button
        variant="minimal"
        size="small"
        icon={fn.favored ? 'star' : 'star-empty'}
        intent={fn.favored ? 'warning' : 'none'}
        aria-label={String(t(fn.favored ? 'functions.unfavor' : 'functions.favor'))}
        title={String(t(fn.favored ? 'functions.unfavor' : 'functions.favor'))}
        data-testid="function-favorite"
        onClick={(e) => (e.stopPropagation(), onFavorite())}
      />
    </div>
  );
}
