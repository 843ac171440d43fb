import '@blueprintjs/core/lib/css/blueprint.css';
import '@blueprintjs/table/lib/css/table.css';
import './workbench.css';
import { startWorkbench } from '@werkbank/kernel/browser-host';
import type { PluginEntry } from '@werkbank/kernel';
import plugins from 'virtual:werkbank-plugins';

void startWorkbench(plugins as PluginEntry[], document.getElementById('root')!);
