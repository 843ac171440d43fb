import { useEffect, useState } from '@werkbank/sdk/react';
import { FormGroup, HTMLSelect } from '@werkbank/sdk/ui';
import { ApiClient, useService, useT, type ListResponse } from '@werkbank/sdk/browser';
import { DEPOT_PATH, type Depot } from '../common/magazine-types';

/** The Style tab (spec 002 §2): a depot of type style, or none — the placeholder 'Default style'. */
export function DepotStyleTab({
  value,
  disabled = false,
  onChange,
}: {
  value: string | null;
  disabled?: boolean;
  onChange(styleDepot: string | null): void;
}) {
  const api = useService(ApiClient);
  const t = useT('magazine');
  const [styles, setStyles] = useState<Depot[]>([]);
  useEffect(() => {
    api.get<ListResponse<Depot>>(`${DEPOT_PATH}by-type/style/`, { query: { limit: 1000, order_by: 'name' } }).then(
      (r) => setStyles(r.objects),
      () => setStyles([]),
    );
  }, [api]);
  return (
    <FormGroup label={t('depot.style')} labelFor="depot-style">
      <HTMLSelect
        id="depot-style"
        fill
        disabled={disabled}
        value={value ?? ''}
        data-testid="depot-style"
        onChange={(e) => onChange(e.target.value || null)}
      >
        <option value="">{t('depot.default_style')}</option>
        {styles.map((s) => (
          <option key={s.id} value={s.resource_uri}>
            {s.name}
          </option>
        ))}
      </HTMLSelect>
    </FormGroup>
  );
}
