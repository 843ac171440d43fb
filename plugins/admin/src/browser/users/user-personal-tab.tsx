import { Checkbox, FormGroup, InputGroup, Radio, RadioGroup, Tag, TextArea } from '@werkbank/sdk/ui';
import { useT } from '@werkbank/sdk/browser';
import { emailProblem, usernameProblem, type UserDraft } from '../../common/user-rules';

const TWO_COLUMNS = { display: 'grid', gridTemplateColumns: '1fr 1fr', columnGap: 12 } as const;

/**
 * The Personal data tab (spec 002 §2–§5): first and last name, username (letters, digits and
 * . _ -), email, 'Send invitation' (new users, while the server can send mail: hides the password,
 * unticks and locks 'allowed to log in', and requires a valid email), password, notes, allowed to
 * log in, staff, superuser (flagged 'Caution'),
 * maximum concurrent sessions (empty or below 1: no limit), expiration date (empty: none).
 */
export function UserPersonalTab({
  value,
  isNew,
  canInvite = false,
  onChange,
}: {
  value: UserDraft;
  isNew: boolean;
  /** spec 002 §4: 'Send invitation' is offered for new users while the server can send mail. */
  canInvite?: boolean;
  onChange(p: Partial<UserDraft>): void;
}) {
  const t = useT('admin');
  const problem = value.username ? usernameProblem(value.username) : undefined;
  const invite = canInvite && value.send_invite;
  const mailProblem = emailProblem({ ...value, send_invite: invite });
  const text = (field: 'first_name' | 'last_name', type = 'text') => (
    <FormGroup label={t(`user.${field}`)} labelFor={`user-${field}`}>
      <InputGroup id={`user-${field}`} type={type} value={value[field]} onValueChange={(v) => onChange({ [field]: v })} />
    </FormGroup>
  );
  return (
    <div data-testid="user-personal">
      <div style={TWO_COLUMNS}>
        {text('first_name')}
        {text('last_name')}
      </div>
      <FormGroup
        label={t('user.username')}
        labelFor="user-username"
        labelInfo={t('user.required')}
        helperText={problem ? t(`user.${problem}`) : t('user.username_help')}
        intent={problem ? 'danger' : 'none'}
      >
        <InputGroup
          id="user-username"
          value={value.username}
          intent={problem ? 'danger' : 'none'}
          autoComplete="off"
          onValueChange={(v) => onChange({ username: v })}
        />
      </FormGroup>
      <FormGroup
        label={t('user.email')}
        labelFor="user-email"
        labelInfo={invite ? t('user.required') : undefined}
        helperText={mailProblem ? t(`user.${mailProblem}`) : undefined}
        intent={mailProblem ? 'danger' : 'none'}
      >
        <InputGroup
          id="user-email"
          type="email"
          intent={mailProblem ? 'danger' : 'none'}
          value={value.email}
          onValueChange={(v) => onChange({ email: v })}
        />
      </FormGroup>
      {canInvite && (
        <Checkbox
          label={String(t('user.send_invite'))}
          checked={value.send_invite}
          data-testid="user-send-invite"
          onChange={(e) => onChange({ send_invite: e.currentTarget.checked })}
        />
      )}
      {invite ? (
        <>
          <p className="wb-muted">{t('user.send_invite_help')}</p>
          <RadioGroup
            label={t('user.invite_language')}
            inline
            selectedValue={value.invite_language}
            onChange={(e) => onChange({ invite_language: e.currentTarget.value === 'de' ? 'de' : 'en' })}
          >
            <Radio label="Deutsch" value="de" />
            <Radio label="English" value="en" />
          </RadioGroup>
        </>
      ) : (
        <FormGroup
          label={t('user.password')}
          labelFor="user-password"
          helperText={t(isNew ? 'user.password_help_new' : 'user.password_help_existing')}
        >
          <InputGroup
            id="user-password"
            type="password"
            autoComplete="new-password"
            value={value.password}
            onValueChange={(v) => onChange({ password: v })}
          />
        </FormGroup>
      )}
      <FormGroup label={t('user.notes')} labelFor="user-notes">
        <TextArea id="user-notes" fill value={value.notes} onChange={(e) => onChange({ notes: e.target.value })} />
      </FormGroup>
      <Checkbox
        label={String(t('user.is_active'))}
        checked={value.is_active && !invite}
        disabled={invite}
        onChange={(e) => onChange({ is_active: e.currentTarget.checked })}
      />
      <Checkbox
        label={String(t('user.is_staff'))}
        checked={value.is_staff}
        onChange={(e) => onChange({ is_staff: e.currentTarget.checked })}
      />
      <Checkbox
        checked={value.is_superuser}
        data-testid="user-superuser"
        onChange={(e) => onChange({ is_superuser: e.currentTarget.checked })}
        labelElement={
          <span>
            {t('user.is_superuser')}{' '}
            <Tag intent="warning" minimal icon="warning-sign">
              {t('user.caution')}
            </Tag>
          </span>
        }
      />
      {value.is_superuser && <p className="wb-muted">{t('user.superuser_help')}</p>}
      <div style={TWO_COLUMNS}>
        <FormGroup label={t('user.max_sessions')} labelFor="user-max-sessions" helperText={t('user.max_sessions_help')}>
          <InputGroup
            id="user-max-sessions"
            type="number"
            min={0}
            value={value.max_concurrent_sessions}
            onValueChange={(v) => onChange({ max_concurrent_sessions: v })}
          />
        </FormGroup>
        <FormGroup label={t('user.expiration')} labelFor="user-expiration" helperText={t('user.expiration_help')}>
          <InputGroup
            id="user-expiration"
            type="date"
            value={value.expiration_date}
            onValueChange={(v) => onChange({ expiration_date: v })}
          />
        </FormGroup>
      </div>
    </div>
  );
}
