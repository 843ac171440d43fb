import { Button, ButtonGroup } from '@blueprintjs/core';
import { observer } from 'mobx-react-lite';
import { LANGUAGES } from '../../common/index';
import { useService, useT } from '../react-context';
import { I18nService } from '../i18n-service';
import { NotificationService } from '../notification-service';

/** German/English switch; remembered per user on the server and per browser in a cookie. */
export const LanguageSwitch = observer(function LanguageSwitch() {
  const i18n = useService(I18nService);
  const notifications = useService(NotificationService);
  const t = useT();
  return (
    <ButtonGroup aria-label={String(t('user.language'))}>
      {LANGUAGES.map((lang) => (
        <Button
          key={lang}
          size="small"
          active={i18n.language === lang}
          data-testid={`lang-${lang}`}
          onClick={() => i18n.setLanguage(lang).catch((e: Error) => notifications.error(e.message))}
          text={lang.toUpperCase()}
        />
      ))}
    </ButtonGroup>
  );
});
