import { useNavigate } from '@werkbank/sdk/react';
import { Button, H6 } from '@werkbank/sdk/ui';
import { observer, useRecentlyUsed, useT } from '@werkbank/sdk/browser';
import { switchboardRoute } from '../../common/switchboard-types';
import { SWITCHBOARD_MRU_KEY, SWITCHBOARD_MRU_LIMIT } from './switchboard-list-ids';

/** The user's most recently used switchboards (spec 000 §9: 2), newest first; hidden while empty. */
export const RecentSwitchboards = observer(function RecentSwitchboards() {
  const t = useT('sb-lists');
  const navigate = useNavigate();
  const recent = useRecentlyUsed(SWITCHBOARD_MRU_KEY, SWITCHBOARD_MRU_LIMIT);
  const entries = recent.entries;
  if (!entries.length) return null;
  return (
    <div className="wb-toolbar wb-recent" data-testid="recent-switchboards">
      <H6 className="wb-muted">{t('list.recent')}</H6>
      {entries.map((e) => (
        <Button
          key={e.id}
          icon="flow-branch"
          variant="outlined"
          text={e.name}
          data-testid={`recent-switchboard-${e.id}`}
          onClick={() => navigate(switchboardRoute(e.id))}
        />
      ))}
    </div>
  );
});
