import { createRoot } from 'react-dom/client';
import type { BackendConfig, PluginEntry } from '../../common/index';
import { createWorkbench } from './workbench';
import { WorkbenchApp } from './workbench-app';

/**
 * Boots the browser: reads /api/v2/backend/config, keeps the plugins the server runs, builds the
 * kernel and renders the workbench into `root`.
 */
export async function startWorkbench(entries: PluginEntry[], root: HTMLElement): Promise<void> {
  const res = await fetch('/api/v2/backend/config', { credentials: 'same-origin' });
  const config = (await res.json()) as BackendConfig;
  const enabled = entries.filter((e) => config.plugins.includes(e.manifest.id));
  const workbench = createWorkbench(enabled, config);
  document.documentElement.lang = config.auth.language;
  createRoot(root).render(<WorkbenchApp workbench={workbench} />);
}
