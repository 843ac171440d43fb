import { useEffect, useMemo, useState, useNavigate } from '@werkbank/sdk/react';
import { Button, ButtonGroup, Callout, Card, H5, InputGroup, Menu, MenuItem, Spinner } from '@werkbank/sdk/ui';
import { ApiClient, NotificationService, ResourceListStore, observer, useService, useT } from '@werkbank/sdk/browser';
import { idOf, SWITCHBOARD_PATH, switchboardRoute, type Switchboard } from '../../common/switchboard-types';
import { copyText } from './copy-text';

const mayRun = (s: Pick<Switchboard, 'access'>) => !s.access || s.access.includes('execute');
const frameNames = (frames: Array<{ name: string }> | undefined) => frames?.map((f) => f.name || '?').join(', ') || '—';

/** The chosen switchboard: name, id, inputs and outputs; copy id, open, remove. */
function ChosenSwitchboard({
  address,
  readOnly,
  onRemove,
  onOpen,
}: {
  address: string;
  readOnly: boolean;
  onRemove(): void;
  onOpen(): void;
}) {
  const api = useService(ApiClient);
  const notifications = useService(NotificationService);
  const t = useT('sb-workflows');
  const [sb, setSb] = useState<Switchboard>();
  const [error, setError] = useState<string>();
  const id = idOf(address);
  useEffect(() => {
    setSb(undefined);
    setError(undefined);
    api.get<Switchboard>(address).then(setSb, (e: Error) => setError(e.message));
  }, [api, address]);
  const copy = () =>
    copyText(String(id)).then(
      () => notifications.success(String(t('core:common.copied'))),
      () => notifications.error(String(t('switchboard.copy_failed'))),
    );
  return (
    <Card className="wb-gap" data-testid="workflow-switchboard-chosen">
      <H5>{sb?.name ?? t('switchboard.id', { id })}</H5>
      {!sb && !error && <Spinner size={16} />}
      {error && <p className="wb-muted">{error}</p>}
      {sb && (
        <p className="wb-muted">
          {t('switchboard.id', { id })} · {t('list.inputs')}: {frameNames(sb.input_frames)} · {t('list.outputs')}:{' '}
          {frameNames(sb.output_frames)}
        </p>
      )}
      <ButtonGroup>
        <Button
          icon="duplicate"
          text={t('switchboard.copy_id')}
          data-testid="workflow-switchboard-copy"
          onClick={() => void copy()}
        />
        <Button icon="share" text={t('switchboard.open')} data-testid="workflow-switchboard-open" onClick={onOpen} />
        {!readOnly && (
          <Button icon="cross" text={t('switchboard.remove')} data-testid="workflow-switchboard-remove" onClick={onRemove} />
        )}
      </ButtonGroup>
    </Card>
  );
}

/**
 * The Switchboard tab of the workflow editor (spec 002 §2): the one switchboard the workflow runs
 * (spec 002 §5: at most one step), with copy-id ('Text copied to clipboard') and open buttons, and a
 * search over the switchboards to pick another. Switchboards the caller may not run are shown but
 * cannot be picked (the server refuses them as a step).
 */
export const WorkflowSwitchboardTab = observer(function WorkflowSwitchboardTab({
  value,
  readOnly = false,
  onChange,
  onNavigate,
}: {
  value: string | null;
  readOnly?: boolean;
  onChange(switchboard: string | null): void;
  /** Called before leaving for the switchboard's canvas (the editor closes). */
  onNavigate(): void;
}) {
  const api = useService(ApiClient);
  const navigate = useNavigate();
  const t = useT('sb-workflows');
  const store = useMemo(() => new ResourceListStore<Switchboard>(api, SWITCHBOARD_PATH, 20), [api]);
  const [text, setText] = useState('');
  useEffect(() => {
    if (readOnly) return;
    store.setQuery({ order_by: 'name', q: text });
    // Typing searches after a pause; every key stroke would ask the server again.
    const timer = setTimeout(() => void store.reload().catch(() => undefined), 250);
    return () => clearTimeout(timer);
  }, [store, text, readOnly]);

  const open = () => {
    onNavigate();
    navigate(switchboardRoute(idOf(value)!));
  };
  return (
    <div data-testid="workflow-switchboard-tab">
      {value ? (
        <ChosenSwitchboard address={value} readOnly={readOnly} onRemove={() => onChange(null)} onOpen={open} />
      ) : (
        <Callout intent="primary" className="wb-gap">
          {t('switchboard.none')}
        </Callout>
      )}
      {!readOnly && (
        <>
          <InputGroup
            leftIcon="search"
            placeholder={String(t('switchboard.search'))}
            value={text}
            data-testid="workflow-switchboard-search"
            onValueChange={setText}
          />
          {store.error && <Callout intent="danger">{store.error}</Callout>}
          <Menu data-testid="workflow-switchboard-results" style={{ maxHeight: 240, overflowY: 'auto' }}>
            {!store.isLoading && store.items.length === 0 && <MenuItem disabled text={t('switchboard.no_results')} />}
            {store.items.map((sb) => (
              <MenuItem
                key={sb.id}
                icon="flow-branch"
                text={sb.name}
                label={mayRun(sb) ? `#${sb.id}` : String(t('switchboard.not_runnable'))}
                active={sb.resource_uri === value}
                disabled={!mayRun(sb)}
                data-testid={`workflow-switchboard-${sb.id}`}
                onClick={() => onChange(sb.resource_uri)}
              />
            ))}
            {store.hasMore && (
              <MenuItem
                icon="more"
                text={t('switchboard.more')}
                shouldDismissPopover={false}
                onClick={() => void store.loadMore()}
              />
            )}
          </Menu>
        </>
      )}
    </div>
  );
});
