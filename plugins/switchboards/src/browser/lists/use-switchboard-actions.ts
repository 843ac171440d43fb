import { useNavigate } from '@werkbank/sdk/react';
import { ApiClient, ConfirmService, NotificationService, useRecentlyUsed, useService, useT } from '@werkbank/sdk/browser';
import {
  SWITCHBOARD_FOLDER_PATH,
  SWITCHBOARD_PATH,
  switchboardRoute,
  type Switchboard,
  type SwitchboardFolder,
} from '../../common/switchboard-types';
import { FOLDER_DELETE_RELOAD_MS, SWITCHBOARD_MRU_KEY, SWITCHBOARD_MRU_LIMIT } from './switchboard-list-ids';
import { fileNameOf, saveJsonFile } from './save-json-file';

/** docs/api.md: an import reads at most 16 MiB. */
export const IMPORT_MAX_BYTES = 16 * 1024 * 1024;

type SwitchboardRef = Pick<Switchboard, 'id' | 'name' | 'resource_uri'>;

export interface SwitchboardActions {
  /** Opens the canvas at /switchboard/{id} and puts it first in the recently used. */
  open(sb: Pick<Switchboard, 'id' | 'name'>): void;
  /** POST {sb}duplicate/: the copy ('Copy of …') in the same folder, or undefined when it failed (said so). */
  duplicate(sb: SwitchboardRef): Promise<Switchboard | undefined>;
  /** "Save as file": GET {sb}export/ offered as `{name}.switchboard.json`. */
  saveAsFile(sb: SwitchboardRef): Promise<void>;
  /** Asks, deletes, says so and drops it from the recently used; a refusal (409 switchboard_running) is shown. */
  remove(sb: SwitchboardRef): Promise<boolean>;
  /** Asks, deletes the folder, says so and calls `reload` after 250 ms (spec 000 §4); 409 folder_not_empty is shown. */
  removeFolder(folder: Pick<SwitchboardFolder, 'id' | 'name'>, reload: () => void): Promise<boolean>;
  /**
   * "Import from file": reads a saved switchboard file and creates it in `folder` (an address or
   * null). Undefined when the file is unreadable or the server refused it (unknown_function,
   * invalid_file, link_cycle, import_running …), which is said in a notification.
   */
  importFile(file: File, folder: string | null): Promise<Switchboard | undefined>;
}

/** The switchboard list's actions with the spec's confirmations and messages; errors as notifications. */
export function useSwitchboardActions(): SwitchboardActions {
  const api = useService(ApiClient);
  const confirm = useService(ConfirmService);
  const notifications = useService(NotificationService);
  const recent = useRecentlyUsed(SWITCHBOARD_MRU_KEY, SWITCHBOARD_MRU_LIMIT);
  const navigate = useNavigate();
  const t = useT('sb-lists');
  const fail = (e: unknown) => void notifications.error((e as Error).message);
  const ask = (question: string) =>
    confirm.confirm(question, { intent: 'danger', confirmLabel: String(t('core:common.delete')) });
  return {
    open(sb) {
      recent.touch({ id: sb.id, name: sb.name });
      navigate(switchboardRoute(sb.id));
    },
    async duplicate(sb) {
      try {
        const copy = await api.post<Switchboard>(`${sb.resource_uri}duplicate/`, {});
        notifications.success(String(t('switchboard.duplicated', { name: copy.name })));
        return copy;
      } catch (e) {
        fail(e);
        return undefined;
      }
    },
    async saveAsFile(sb) {
      try {
        saveJsonFile(fileNameOf(sb.name, '.switchboard.json'), await api.get(`${sb.resource_uri}export/`));
      } catch (e) {
        fail(e);
      }
    },
    async remove(sb) {
      if (!(await ask(String(t('switchboard.delete_confirm', { name: sb.name }))))) return false;
      try {
        await api.delete(sb.resource_uri);
      } catch (e) {
        fail(e);
        return false;
      }
      recent.remove(sb.id);
      notifications.success(String(t('core:common.deleted')));
      return true;
    },
    async removeFolder(folder, reload) {
      if (!(await ask(String(t('folder.delete_confirm', { name: folder.name }))))) return false;
      try {
        await api.delete(`${SWITCHBOARD_FOLDER_PATH}${folder.id}/`);
      } catch (e) {
        fail(e);
        return false;
      }
      notifications.success(String(t('folder.deleted')));
      setTimeout(reload, FOLDER_DELETE_RELOAD_MS);
      return true;
    },
    async importFile(file, folder) {
      if (file.size > IMPORT_MAX_BYTES) {
        notifications.error(String(t('import.too_large', { name: file.name })));
        return undefined;
      }
      let content: unknown;
      try {
        content = JSON.parse(await file.text());
      } catch {
        notifications.error(String(t('import.not_json', { name: file.name })));
        return undefined;
      }
      try {
        const created = await api.post<Switchboard>(`${SWITCHBOARD_PATH}import/`, { file: content, folder });
        notifications.success(String(t('import.done', { name: created.name })));
        return created;
      } catch (e) {
        notifications.error(String(t('import.failed', { reason: (e as Error).message })));
        return undefined;
      }
    },
  };
}
