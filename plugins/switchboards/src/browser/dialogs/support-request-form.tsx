import { useState } from '@werkbank/sdk/react';
import { Button, Callout, FormGroup, TextArea } from '@werkbank/sdk/ui';
import { ApiClient, NotificationService, useService, useT } from '@werkbank/sdk/browser';
import { NODERUN_PATH } from '../../common/switchboard-types';

/** The server's limit of a support message (docs/api.md "Running"). */
export const SUPPORT_MESSAGE_MAX = 2000;

/** POST /api/v1/noderun/{id}/support/ (ours; spec 000 §7 leaves the path open). */
export const supportPath = (runId: number) => `${NODERUN_PATH}${runId}/support/`;

/**
 * The support request of a failed run (spec 000 §5, §7): an optional message and Send. The run
 * details show it only for a failed run; the server refuses others as well.
 */
export function SupportRequestForm({ runId }: { runId: number }) {
  const t = useT('sb-dialogs');
  const api = useService(ApiClient);
  const notifications = useService(NotificationService);
  const [message, setMessage] = useState('');
  const [state, setState] = useState<'idle' | 'sending' | 'sent'>('idle');
  const [error, setError] = useState<string>();
  const tooLong = message.length > SUPPORT_MESSAGE_MAX;
  const send = async () => {
    setState('sending');
    setError(undefined);
    try {
      await api.post(supportPath(runId), message.trim() ? { message: message.trim() } : {});
      setState('sent');
      notifications.success(String(t('support.sent')));
    } catch (e) {
      setState('idle');
      setError((e as Error).message);
    }
  };
  if (state === 'sent') {
    return (
      <Callout intent="success" icon="tick" data-testid="support-sent">
        {t('support.sent_text')}
      </Callout>
    );
  }
  return (
    <div data-testid="support-request">
      <FormGroup
        label={t('support.title')}
        labelFor="sb-support-message"
        labelInfo={t('support.optional')}
        helperText={tooLong ? t('support.too_long', { max: SUPPORT_MESSAGE_MAX }) : t('support.hint')}
        intent={tooLong ? 'danger' : 'none'}
      >
        <TextArea
          id="sb-support-message"
          fill
          rows={3}
          value={message}
          intent={tooLong ? 'danger' : 'none'}
          data-testid="support-message"
          onChange={(e) => setMessage(e.target.value)}
        />
      </FormGroup>
      {error && (
        <Callout intent="danger" title={String(t('common.error'))} data-testid="support-error">
          {error}
        </Callout>
      )}
      <Button
        icon="envelope"
        intent="primary"
        text={t('support.send')}
        loading={state === 'sending'}
        disabled={tooLong}
        data-testid="support-send"
        onClick={() => void send()}
      />
    </div>
  );
}
