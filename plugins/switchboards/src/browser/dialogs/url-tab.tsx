import { useEffect, useState } from '@werkbank/sdk/react';
import { Button, Callout, FormGroup, InputGroup, Spinner } from '@werkbank/sdk/ui';
import { ApiClient, ConfigStore, observer, useService, useT } from '@werkbank/sdk/browser';
import { FUNCTION_PATH, type FunctionInfo } from '../../common/switchboard-types';
import type { InsertResult } from './insert-result';
import { importParams, pickImportFunction } from './pick-import-function';

/** Whether the import function is installed: GET /api/v1/function/{name}/ (404: not installed). */
type Check =
  { state: 'checking' } | { state: 'ok'; fn: FunctionInfo } | { state: 'missing' } | { state: 'error'; message: string };

function useFunctionCheck(name: string | null): Check | undefined {
  const api = useService(ApiClient);
  const [check, setCheck] = useState<Check>();
  useEffect(() => {
    setCheck(name ? { state: 'checking' } : undefined);
    if (!name) return;
    let live = true;
    const timer = setTimeout(() => {
      api.get<FunctionInfo>(`${FUNCTION_PATH}${encodeURIComponent(name)}/`).then(
        (fn) => live && setCheck({ state: 'ok', fn }),
        (e: Error & { status?: number }) =>
          live && setCheck(e.status === 404 ? { state: 'missing' } : { state: 'error', message: e.message }),
      );
    }, 200);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [api, name]);
  return check;
}

/**
 * The insert dialog's url tab (spec 000 §2, spec 001 §7): an address; the import function follows
 * from its kind (pickImportFunction) and is shown. A local path needs the administrator flag of the
 * configuration. When the function is not installed, the address can go in as a text frame.
 */
export const UrlTab = observer(function UrlTab({ onInsert }: { onInsert(r: InsertResult): void }) {
  const t = useT('sb-dialogs');
  const config = useService(ConfigStore);
  const [url, setUrl] = useState('');
  const choice = pickImportFunction(url, { allowLocal: config.isSuperuser });
  const check = useFunctionCheck(choice.func);
  const ready = choice.func && check?.state === 'ok';
  const insert = () => {
    if (choice.func && check?.state === 'ok') {
      onInsert({ kind: 'url', url: url.trim(), func: choice.func, params: importParams(choice, check.fn) });
    }
  };
  const asText = () => onInsert({ kind: 'frame', contentType: 'string', items: [{ value: url.trim() }] });
  return (
    <div>
      <FormGroup
        label={t('url.label')}
        labelFor="insert-url"
        helperText={config.isSuperuser ? t('url.hint_local') : t('url.hint')}
      >
        <InputGroup
          id="insert-url"
          autoFocus
          fill
          leftIcon="link"
          placeholder="https://…"
          data-testid="url-input"
          value={url}
          onValueChange={setUrl}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && ready) {
              e.preventDefault();
              insert();
            }
          }}
        />
      </FormGroup>
      {choice.func === null && choice.problem !== 'empty' && (
        <Callout intent="warning" data-testid="url-problem">
          {t(`url.problem_${choice.problem}`)}
        </Callout>
      )}
      {choice.func && (
        <div data-testid="url-function" data-func={choice.func}>
          {check?.state === 'checking' && <Spinner size={16} />}
          {check?.state === 'ok' && (
            <Callout intent="primary" icon="import">
              {t('url.imported_with', { name: check.fn.verbose_name || choice.func, func: choice.func })}
            </Callout>
          )}
          {check?.state === 'missing' && (
            <Callout intent="warning" title={String(t('url.missing_title'))} data-testid="url-missing">
              <p>{t('url.missing', { func: choice.func })}</p>
              <Button icon="new-text-box" text={t('url.as_text')} data-testid="url-as-text" onClick={asText} />
            </Callout>
          )}
          {check?.state === 'error' && (
            <Callout intent="danger" title={String(t('common.error'))}>
              {check.message}
            </Callout>
          )}
        </div>
      )}
      <div style={{ display: 'flex', justifyContent: 'flex-end', marginTop: 12 }}>
        <Button intent="primary" icon="add" text={t('url.insert')} disabled={!ready} data-testid="url-insert" onClick={insert} />
      </div>
    </div>
  );
});
