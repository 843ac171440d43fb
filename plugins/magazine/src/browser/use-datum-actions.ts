import { ApiClient, ConfirmService, NotificationService, useService, useT } from '@werkbank/sdk/browser';
import { DATUM_PATH, type Datum, type DatumWriteReply } from '../common/magazine-types';
import { changedFields, datumFields, duplicateBody } from '../common/datum-fields';
import type { DepotStore } from './depot-store';

export interface DatumActions {
  /** PATCH the changed fields with the datum's version; a 409 shows the reason, reloads and closes. */
  save(datum: Datum, fields: Record<string, unknown>): Promise<boolean>;
  /** GET the create-in-depot template: the fields of a new datum. */
  template(): Promise<Record<string, unknown>>;
  create(fields: Record<string, unknown>): Promise<boolean>;
  duplicate(datum: Datum): Promise<void>;
  remove(datum: Datum): Promise<void>;
}

/**
 * The datum writes of the depot screen (docs/api.md "Datums"): each names the head it was based on
 * (`moment_id`), remembers the head the reply names, and calls `afterWrite` to reload.
 */
export function useDatumActions(store: DepotStore, afterWrite: () => void): DatumActions {
  const api = useService(ApiClient);
  const notifications = useService(NotificationService);
  const confirm = useService(ConfirmService);
  const t = useT('magazine');
  const query = () => (store.headId ? { moment_id: store.headId } : {});
  const createPath = `${DATUM_PATH}create-in-depot/${store.depotId}/`;
  const done = (reply: DatumWriteReply, message: string) => {
    store.noteWrite(reply);
    notifications.success(message);
    afterWrite();
  };
  /** A conflict (409 moment_moved, datum_changed) shows the server's reason and reloads; true when handled. */
  const conflict = (e: unknown): boolean => {
    if ((e as { status?: number }).status !== 409) return false;
    notifications.error((e as Error).message);
    afterWrite();
    return true;
  };
  const fail = (e: unknown) => conflict(e) || notifications.error((e as Error).message);
  return {
    async save(datum, fields) {
      const body = { ...changedFields(datumFields(datum), fields), version: datum.version };
      try {
        done(
          await api.patch<DatumWriteReply>(`${DATUM_PATH}${datum.index}/`, body, { query: query() }),
          String(t('core:common.saved')),
        );
        return true;
      } catch (e) {
        if (conflict(e)) return true;
        throw e;
      }
    },
    template: () => api.get<Record<string, unknown>>(createPath).then((d) => duplicateBody(d as Datum)),
    async create(fields) {
      try {
        done(await api.post<DatumWriteReply>(createPath, fields, { query: query() }), String(t('datum.created')));
        return true;
      } catch (e) {
        if (conflict(e)) return true;
        throw e;
      }
    },
    async duplicate(datum) {
      try {
        const current = await api.get<Datum>(`${DATUM_PATH}${datum.index}/`);
        done(
          await api.post<DatumWriteReply>(createPath, duplicateBody(current), { query: query() }),
          String(t('datum.duplicated')),
        );
      } catch (e) {
        fail(e);
      }
    },
    async remove(datum) {
      const ok = await confirm.confirm(String(t('datum.delete_confirm', { name: datum.text_repr })), {
        intent: 'danger',
        confirmLabel: String(t('core:common.delete')),
      });
      if (!ok) return;
      try {
        done(
          // The version read here too, so a datum someone changed meanwhile is not deleted unseen (409).
          await api.delete<DatumWriteReply>(`${DATUM_PATH}${datum.index}/`, {
            query: { ...query(), version: String(datum.version) },
          }),
          String(t('core:common.deleted')),
        );
      } catch (e) {
        fail(e);
      }
    },
  };
}
