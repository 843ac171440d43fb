import { useNavigate } from '@werkbank/sdk/react';
import { Button, ButtonGroup, EditableText, Menu, MenuItem, Popover, ProgressBar, Tag, Tooltip } from '@werkbank/sdk/ui';
import {
  ApiClient,
  ConfigStore,
  ConfirmService,
  I18nService,
  NotificationService,
  ObjectTags,
  observer,
  useService,
} from '@werkbank/sdk/browser';
import { SWITCHBOARDS_ROUTE, switchboardRoute, type Switchboard } from '../../common/switchboard-types';
import type { CanvasController } from './canvas-controller';
import { formatPercent } from '../../common/format-percent';

/**
 * The canvas title bar (spec 000 §2 "Switchboard screen"): the name with its dropdown (Rename,
 * Duplicate, Delete, Save as file, Settings, Show context), tag chips when the tags component is on,
 * run and stop, undo and redo, who else is here, and the buttons for settings, add and preview.
 */
export const CanvasTitleBar = observer(function CanvasTitleBar({
  c,
  renaming,
  setRenaming,
}: {
  c: CanvasController;
  renaming: boolean;
  setRenaming(on: boolean): void;
}) {
  const api = useService(ApiClient);
  const config = useService(ConfigStore);
  const confirm = useService(ConfirmService);
  const notify = useService(NotificationService);
  const i18n = useService(I18nService);
  const navigate = useNavigate();
  const sb = c.store.switchboard;
  const t = c.t;
  if (!sb) return null;
  const writable = c.store.writable;
  const running = sb.status === 'started';

  const rename = async (name: string) => {
    setRenaming(false);
    const next = name.trim();
    if (!next || next === sb.name) return;
    const saved = await c.guard(api.patch<Switchboard>(sb.resource_uri, { name: next }));
    if (saved) c.store.switchboard!.name = saved.name;
  };
  const duplicate = async () => {
    const copy = await c.guard(api.post<Switchboard>(`${sb.resource_uri}duplicate/`, {}));
    if (copy) {
      notify.success(t('title.duplicated', { name: copy.name }));
      navigate(switchboardRoute(copy.id));
    }
  };
  const remove = async () => {
    if (
      !(await confirm.confirm(t('title.delete_confirm', { name: sb.name }), {
        intent: 'danger',
        confirmLabel: t('title.delete'),
      }))
    )
      return;
    if ((await c.guard(api.delete(sb.resource_uri))) !== undefined) {
      notify.success(t('title.deleted'));
      navigate(SWITCHBOARDS_ROUTE);
    }
  };
  const others = [...c.store.presence.values()];
  const progress = sb.progress?.total ?? 0;
  const menu = (
    <Menu>
      <MenuItem icon="edit" text={t('title.rename')} disabled={!writable} onClick={() => setRenaming(true)} />
      <MenuItem icon="duplicate" text={t('title.duplicate')} onClick={() => void duplicate()} />
      <MenuItem icon="trash" intent="danger" text={t('title.delete')} disabled={!writable} onClick={() => void remove()} />
      <MenuItem icon="download" text={t('title.save_as_file')} href={`${sb.resource_uri}export/`} download />
      <MenuItem icon="cog" text={t('menu.settings')} onClick={() => c.openDialog({ kind: 'settings' })} />
      <MenuItem icon="graph" text={t('title.show_context')} onClick={() => c.toggleContextView()} />
    </Menu>
  );
  return (
    <div className="wb-canvas-titlebar" data-testid="canvas-titlebar">
      <Popover content={menu} placement="bottom-start">
        <Button minimal rightIcon="caret-down" data-testid="switchboard-menu" aria-label={t('title.menu')} />
      </Popover>
      {renaming ? (
        <EditableText
          className="wb-canvas-name"
          defaultValue={sb.name}
          isEditing
          alwaysRenderInput
          selectAllOnFocus
          onConfirm={(v) => void rename(v)}
          onCancel={() => setRenaming(false)}
        />
      ) : (
        <h2 className="wb-canvas-name" data-testid="switchboard-name" onDoubleClick={() => writable && setRenaming(true)}>
          {sb.name}
        </h2>
      )}
      {config.isEnabled('tags') && (
        <ObjectTags address={sb.resource_uri} tags={sb.tags} readOnly={!writable} onChange={() => void c.store.load()} />
      )}
      <Tag
        minimal
        intent={sb.status === 'failure' ? 'danger' : sb.status === 'success' ? 'success' : 'none'}
        data-testid="switchboard-status"
      >
        {t(`status.${sb.status}`)}
        {running && ` ${formatPercent(progress, i18n.language)}`}
      </Tag>
      {running && <ProgressBar className="wb-canvas-progress" value={progress / 100} aria-label={t('run.progress')} />}
      <span className="wb-spacer" />
      {others.length > 0 && (
        <span className="wb-presence" data-testid="presence">
          {others.map((p) => (
            <Tooltip key={p.client} content={t('presence.here', { name: p.name })} compact>
              <Tag round minimal icon="person">
                {p.name}
              </Tag>
            </Tooltip>
          ))}
        </span>
      )}
      <ButtonGroup>
        <Button
          icon="undo"
          aria-label={t('undo.undo')}
          title={t('undo.undo')}
          data-testid="undo"
          disabled={!c.actions.undo.canUndo}
          onClick={() => void c.undo()}
        />
        <Button
          icon="redo"
          aria-label={t('undo.redo')}
          title={t('undo.redo')}
          data-testid="redo"
          disabled={!c.actions.undo.canRedo}
          onClick={() => void c.redo()}
        />
      </ButtonGroup>
      <ButtonGroup>
        {running ? (
          <Button icon="stop" intent="danger" text={t('run.stop')} data-testid="abort" onClick={() => void c.abort()} />
        ) : (
          <Button
            icon="play"
            intent="success"
            text={t('run.run')}
            data-testid="run"
            disabled={!c.store.executable}
            onClick={() => void c.confirmRun()}
          />
        )}
        <Button
          icon="cog"
          aria-label={t('menu.settings')}
          title={t('menu.settings')}
          data-testid="settings"
          onClick={() => c.openDialog({ kind: 'settings' })}
        />
        <Button
          icon="add"
          intent="primary"
          text={t('title.add')}
          data-testid="add"
          disabled={!writable}
          onClick={() => c.openDialog({ kind: 'insert', mode: 'function' })}
        />
        <Button
          icon="eye-open"
          active={c.previewOpen}
          aria-label={t('title.preview')}
          title={t('title.preview')}
          data-testid="preview-toggle"
          onClick={() => c.togglePreview()}
        />
      </ButtonGroup>
    </div>
  );
});
