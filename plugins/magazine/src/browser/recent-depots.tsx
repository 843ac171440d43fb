import { useNavigate } from '@werkbank/sdk/react';
import { Button, H6 } from '@werkbank/sdk/ui';
import { observer, useRecentlyUsed, useT } from '@werkbank/sdk/browser';
import { depotRoute } from '../common/magazine-types';
import { DEPOT_MRU_KEY, DEPOT_MRU_LIMIT } from '../common/magazine-ids';

/** The user's most recently used depots (spec 000 §9: 4), newest first; hidden while empty. */
export const RecentDepots = observer(function RecentDepots() {
  const t = useT('magazine');
  const navigate = useNavigate();
  const recent = useRecentlyUsed(DEPOT_MRU_KEY, DEPOT_MRU_LIMIT);
  const entries = recent.entries;
  if (!entries.length) return null;
  return (
    <div className="wb-toolbar wb-recent" data-testid="recent-depots">
      <H6 className="wb-muted">{t('list.recent')}</H6>
      {entries.map((e) => (
        <Button
          key={e.id}
          icon="database"
          variant="outlined"
          text={e.name}
          data-testid={`recent-depot-${e.id}`}
          onClick={() => navigate(depotRoute(e.id))}
        />
      ))}
    </div>
  );
});
