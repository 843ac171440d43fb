import { useEffect, useMemo } from '@werkbank/sdk/react';
import { Button, Callout, Dialog, DialogBody, DialogFooter, Spinner, Tag } from '@werkbank/sdk/ui';
import { ApiClient, TypeHierarchy, observer, useService, useT } from '@werkbank/sdk/browser';
import { WorkflowRunStore, type RunStage } from './workflow-run-store';
import { WorkflowInputStage } from './workflow-input-stage';
import { WorkflowProgressStage } from './workflow-progress-stage';
import { WorkflowResultStage } from './workflow-result-stage';

const STAGES: RunStage[] = ['input', 'progress', 'result'];

export interface WorkflowRunPanelProps {
  /** The workflow's resource address. */
  address: string;
  onClose(): void;
  /** How often the running execution is polled (ms); tests shorten it. */
  pollMs?: number;
}

/**
 * The workflow run panel (spec 000 §2) with its three stages: input data (Run while initialized),
 * progress (Stop while started), result (Restart after success or failure; spec 000 §4). Closing
 * the panel stops polling; an execution under way goes on on the server.
 */
export const WorkflowRunPanel = observer(function WorkflowRunPanel({ address, onClose, pollMs }: WorkflowRunPanelProps) {
  const api = useService(ApiClient);
  const types = useService(TypeHierarchy);
  const t = useT('sb-workflows');
  const store = useMemo(() => new WorkflowRunStore(api, types, address, pollMs), [api, types, address, pollMs]);
  useEffect(() => {
    void store.load();
    return () => store.dispose();
  }, [store]);

  const stage = store.stage;
  return (
    <Dialog
      isOpen
      icon="flow-linear"
      style={{ width: 720 }}
      title={store.workflow ? t('run.title', { name: store.workflow.name }) : t('run.title_loading')}
      onClose={onClose}
    >
      <DialogBody>
        <div className="wb-toolbar" data-testid="run-stage" data-stage={stage}>
          {STAGES.map((s, i) => (
            <Tag key={s} round minimal={s !== stage} intent={s === stage ? 'primary' : 'none'}>
              {i + 1}. {t(`run.stage_${s}`)}
            </Tag>
          ))}
        </div>
        {store.workflow?.description && stage === 'input' && <p className="wb-muted">{store.workflow.description}</p>}
        {store.loading && <Spinner size={24} />}
        {!store.loading && store.workflow && stage === 'input' && <WorkflowInputStage store={store} />}
        {stage === 'progress' && <WorkflowProgressStage execution={store.execution!} />}
        {stage === 'result' && <WorkflowResultStage store={store} />}
        {store.error && (
          <Callout intent="danger" data-testid="run-error">
            {store.error}
          </Callout>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('core:common.close')} onClick={onClose} />
            {stage === 'input' && (
              <Button
                intent="primary"
                icon="play"
                text={t('run.start')}
                loading={store.starting}
                disabled={store.loading || !store.runnable}
                data-testid="run-start"
                onClick={() => void store.run()}
              />
            )}
            {stage === 'progress' && (
              <Button
                intent="danger"
                icon="stop"
                text={t('run.stop')}
                loading={store.stopping}
                data-testid="run-stop"
                onClick={() => void store.stop()}
              />
            )}
            {stage === 'result' && (
              <Button
                intent="primary"
                icon="refresh"
                text={t('run.restart')}
                data-testid="run-restart"
                onClick={() => store.restart()}
              />
            )}
          </>
        }
      />
    </Dialog>
  );
});
