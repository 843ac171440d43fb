import type { RunStatus } from '../../common/switchboard-types';

const locale = (lang: string) => (lang === 'de' ? 'de-DE' : 'en-GB');

/** A date and time in the user's language, or '–'. */
export function formatDateTime(iso: string | null | undefined, lang: string): string {
  if (!iso) return '–';
  return new Intl.DateTimeFormat(locale(lang), { dateStyle: 'medium', timeStyle: 'medium' }).format(new Date(iso));
}

/** How long a run took: '850 ms', '12.3 s', '2 min 5 s', '1 h 3 min'; '–' while it has not ended. */
export function formatDuration(start: string | null | undefined, end: string | null | undefined, lang: string): string {
  if (!start || !end) return '–';
  const ms = Math.max(0, new Date(end).getTime() - new Date(start).getTime());
  if (ms < 1000) return `${ms} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toLocaleString(locale(lang), { maximumFractionDigits: 1 })} s`;
  const total = Math.round(s);
  if (total < 3600) return `${Math.floor(total / 60)} min ${total % 60} s`;
  return `${Math.floor(total / 3600)} h ${Math.floor((total % 3600) / 60)} min`;
}

/** The intent of a status tag. */
export const STATUS_INTENT: Record<RunStatus, 'none' | 'primary' | 'success' | 'danger' | 'warning'> = {
  initialized: 'none',
  waiting: 'primary',
  started: 'primary',
  success: 'success',
  failure: 'danger',
  cancelled: 'warning',
};

/** spec 002 §4: the node status text's key (waiting and started both read 'Running'). */
export const nodeStatusKey = (status: RunStatus) => `status.${status === 'waiting' ? 'started' : status}` as const;

/** A run's status text key (runs distinguish waiting from running). */
export const runStatusKey = (status: RunStatus) => `run_status.${status}` as const;
