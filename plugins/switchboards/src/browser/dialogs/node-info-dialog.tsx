import { useState } from '@werkbank/sdk/react';
import { Button, Dialog, DialogBody, DialogFooter, Tab, Tabs } from '@werkbank/sdk/ui';
import { ConfigStore, observer, useService, useT } from '@werkbank/sdk/browser';
import type { SbNode } from '../../common/switchboard-types';
import { NodeInfoPanel } from './node-info-panel';
import { NodeRunsPanel } from './node-runs-panel';

/** The licensed component that adds the Runs tab (spec 000 §2). */
export const NODE_RUNS_COMPONENT = 'node_runs';

export interface NodeInfoDialogProps {
  node: SbNode;
  /** 'runs' opens the Runs tab (e.g. from a failed node's info icon) when node_runs is enabled. */
  initialTab?: 'info' | 'runs';
  /** The names of inputs a link feeds (the canvas knows them best); else the node's own list. */
  linked?: string[];
  /** Receives the node after its input values were changed; without it they are read-only. */
  onChanged?(node: SbNode): void;
  onClose(): void;
}

/**
 * The node information dialog (spec 000 §2): tabs Information and Runs; Runs only when the
 * node_runs component is enabled (ConfigStore). Escape or Close closes it.
 */
export const NodeInfoDialog = observer(function NodeInfoDialog({
  node,
  initialTab = 'info',
  linked,
  onChanged,
  onClose,
}: NodeInfoDialogProps) {
  const t = useT('sb-dialogs');
  const runs = useService(ConfigStore).isEnabled(NODE_RUNS_COMPONENT);
  const [tab, setTab] = useState<'info' | 'runs'>(initialTab);
  const shown = runs ? tab : 'info';
  return (
    <Dialog
      isOpen
      icon="info-sign"
      title={node.func_verbose_name || node.func}
      onClose={onClose}
      style={{ width: 720, maxWidth: '95vw' }}
    >
      <DialogBody>
        <div data-testid="node-info-dialog">
          <Tabs
            id="sb-node-info-tabs"
            selectedTabId={shown}
            onChange={(id) => setTab(id as 'info' | 'runs')}
            renderActiveTabPanelOnly
          >
            <Tab id="info" title={t('info.tab')} panel={<NodeInfoPanel node={node} linked={linked} onChanged={onChanged} />} />
            {runs && <Tab id="runs" title={t('runs.tab')} panel={<NodeRunsPanel node={node} />} />}
          </Tabs>
        </div>
      </DialogBody>
      <DialogFooter actions={<Button text={t('common.close')} onClick={onClose} />} />
    </Dialog>
  );
});
