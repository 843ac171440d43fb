import { Card, H2, Icon } from '@blueprintjs/core';
import { Link } from 'react-router';
import { observer } from 'mobx-react-lite';
import { useT } from '../react-context';
import { useMenuItems } from './use-menu-items';

/** The start page: the sections of the main menu that are installed. */
export const HomePage = observer(function HomePage() {
  const t = useT();
  const items = useMenuItems('main').filter((i) => i.installed);
  return (
    <div className="wb-page">
      <H2>{t('welcome.title')}</H2>
      <p className="wb-lead">{t('welcome.text')}</p>
      <div className="wb-cards">
        {items.map((i) => (
          <Link key={i.id} to={i.path ?? '/'} className="wb-card-link">
            <Card interactive>
              <Icon icon={(i.icon ?? 'application') as never} size={20} /> <strong>{i.label}</strong>
            </Card>
          </Link>
        ))}
      </div>
    </div>
  );
});
