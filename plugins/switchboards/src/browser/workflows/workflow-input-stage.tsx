import { Button, Callout, FormGroup, Tag } from '@werkbank/sdk/ui';
import { DatumEditorHost, observer, useT } from '@werkbank/sdk/browser';
import type { WorkflowRunStore } from './workflow-run-store';

/**
 * The input data stage (spec 000 §2): one field per input frame of the workflow's switchboard —
 * its name, description and type — edited with the datum editor of the frame's content type
 * (spec 002 §2). A frame takes a list of items: values can be added and, down to one, removed.
 */
export const WorkflowInputStage = observer(function WorkflowInputStage({ store }: { store: WorkflowRunStore }) {
  const t = useT('sb-workflows');
  if (!store.workflow?.switchboard) {
    return (
      <Callout intent="warning" data-testid="run-no-switchboard">
        {t('run.no_switchboard')}
      </Callout>
    );
  }
  return (
    <div data-testid="run-inputs">
      {!store.runnable && (
        <Callout intent="primary" icon="lock" className="wb-gap">
          {t('run.not_allowed')}
        </Callout>
      )}
      {store.inputs.length === 0 && <p className="wb-muted">{t('run.no_inputs')}</p>}
      {store.inputs.map((input, i) => (
        <FormGroup
          key={input.frame.resource_uri}
          label={input.frame.name || t('run.input_label', { n: i + 1 })}
          labelInfo={<Tag minimal>{input.typeName}</Tag>}
          subLabel={input.frame.description || undefined}
          data-testid={`run-input-${input.key}`}
        >
          {input.values.map((value, j) => (
            <div key={j} className="wb-toolbar" data-testid="run-input-value">
              <div style={{ flex: 1 }}>
                <DatumEditorHost
                  contentType={input.frame.content_type}
                  value={value}
                  readOnly={!store.runnable}
                  onChange={(v) => store.setValue(i, j, v)}
                />
              </div>
              {input.values.length > 1 && (
                <Button
                  variant="minimal"
                  icon="cross"
                  aria-label={String(t('run.remove_value'))}
                  onClick={() => store.removeValue(i, j)}
                />
              )}
            </div>
          ))}
          {store.runnable && (
            <Button size="small" variant="minimal" icon="add" text={t('run.add_value')} onClick={() => store.addValue(i)} />
          )}
        </FormGroup>
      ))}
    </div>
  );
});
