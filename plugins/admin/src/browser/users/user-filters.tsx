import { HTMLSelect } from '@werkbank/sdk/ui';
import { useT } from '@werkbank/sdk/browser';

/** The list's filters (spec 002 §6 roles): each is all (''), yes ('true') or no ('false'). */
export interface UserFilters {
  is_active: string;
  is_staff: string;
  is_superuser: string;
}

export const NO_USER_FILTERS: UserFilters = { is_active: '', is_staff: '', is_superuser: '' };

const LABELS: Record<keyof UserFilters, string> = {
  is_active: 'users.filter_active',
  is_staff: 'users.filter_staff',
  is_superuser: 'users.filter_superuser',
};

/** Three selects: active, staff, superuser — each all, yes or no. */
export function UserFilterBar({ value, onChange }: { value: UserFilters; onChange(next: UserFilters): void }) {
  const t = useT('admin');
  return (
    <div className="wb-toolbar" role="group" aria-label={String(t('users.filters'))}>
      {(Object.keys(LABELS) as Array<keyof UserFilters>).map((key) => (
        <label key={key} className="wb-inline-label">
          {t(LABELS[key])}{' '}
          <HTMLSelect
            value={value[key]}
            data-testid={`user-filter-${key}`}
            onChange={(e) => onChange({ ...value, [key]: e.target.value })}
          >
            <option value="">{t('users.all')}</option>
            <option value="true">{t('core:common.yes')}</option>
            <option value="false">{t('core:common.no')}</option>
          </HTMLSelect>
        </label>
      ))}
    </div>
  );
}
