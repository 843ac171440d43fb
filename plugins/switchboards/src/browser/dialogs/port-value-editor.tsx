import { useState } from '@werkbank/sdk/react';
import { Button, Callout, Spinner } from '@werkbank/sdk/ui';
import { datumEditorValue, datumFieldsFromEditor } from '@werkbank/sdk';
import { ApiClient, DatumEditorHost, useService, useT, useTypeTemplate } from '@werkbank/sdk/browser';
import { typeName, type Port, type SbNode } from '../../common/switchboard-types';

/** A port's value as short text: the datum's only field when the type has one, else JSON. */
export function portValueText(value: unknown): string {
  if (value === null || value === undefined) return '';
  const fields = value as Record<string, unknown>;
  const keys = typeof value === 'object' ? Object.keys(fields) : [];
  const only = keys.length === 1 ? fields[keys[0]] : value;
  const text = typeof only === 'string' ? only : JSON.stringify(only);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/**
 * The value of an unlinked input, edited with the editor of the port's type (issue 14 item 13) and
 * stored with the node (PATCH ports: `default_value`); Remove clears it. The server checks it
 * against the type and refuses with a reason, which shows here.
 */
export function PortValueEditor({
  node,
  port,
  onSaved,
  onDone,
}: {
  node: SbNode;
  port: Port;
  onSaved(node: SbNode): void;
  onDone(): void;
}) {
  const t = useT('sb-dialogs');
  const api = useService(ApiClient);
  const type = typeName(port.content_type);
  const template = useTypeTemplate(type);
  const [value, setValue] = useState<unknown>();
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  if (!template) return <Spinner size={16} />;
  const fields = (port.default_value as Record<string, unknown> | null) ?? template;
  const shown = touched ? value : datumEditorValue(template, fields);
  const save = async (next: Record<string, unknown> | null) => {
    setBusy(true);
    setError(undefined);
    try {
      onSaved(await api.patch<SbNode>(node.resource_uri, { ports: [{ name: port.name, default_value: next }] }));
      onDone();
    } catch (e) {
      setError((e as Error).message);
      setBusy(false);
    }
  };
  return (
    <div data-testid="port-value-editor" data-port={port.name}>
      <DatumEditorHost
        contentType={`/api/v1/type/${type}/`}
        value={shown}
        onChange={(v) => {
          setTouched(true);
          setValue(v);
        }}
      />
      {error && (
        <Callout intent="danger" data-testid="port-value-error">
          {error}
        </Callout>
      )}
      <div className="wb-toolbar">
        <Button
          intent="primary"
          size="small"
          text={t('info.value_save')}
          loading={busy}
          data-testid="port-value-save"
          onClick={() => void save(datumFieldsFromEditor(template, fields, shown))}
        />
        {port.default_value != null && (
          <Button
            size="small"
            text={t('info.value_remove')}
            disabled={busy}
            data-testid="port-value-remove"
            onClick={() => void save(null)}
          />
        )}
        <Button size="small" variant="minimal" text={t('common.cancel')} disabled={busy} onClick={onDone} />
      </div>
    </div>
  );
}
