import { useEffect } from '@werkbank/sdk/react';
import { useRecentlyUsed } from '@werkbank/sdk/browser';
import { SWITCHBOARD_MRU_KEY, SWITCHBOARD_MRU_LIMIT } from './switchboard-list-ids';

/**
 * For the canvas screen: records a visit of `switchboard` in the user's most recently used
 * switchboards (spec 000 §9: 2, newest first) once it is loaded, and again when its id or name
 * changes (a rename shows in the list). Pass undefined while it loads.
 */
export function useRecordSwitchboardVisit(switchboard: { id: number; name: string } | null | undefined): void {
  const recent = useRecentlyUsed(SWITCHBOARD_MRU_KEY, SWITCHBOARD_MRU_LIMIT);
  const id = switchboard?.id;
  const name = switchboard?.name;
  useEffect(() => {
    if (id !== undefined && name !== undefined) recent.touch({ id, name });
  }, [recent, id, name]);
}
