import { Callout, H5, HTMLTable, Tag } from '@werkbank/sdk/ui';
import { TypeHierarchy, observer, useService, useT } from '@werkbank/sdk/browser';
import { typeName } from '../../common/switchboard-types';
import type { WorkflowRunStore } from './workflow-run-store';
import { RESULT_ITEMS_SHOWN } from './workflow-ids';

type Result = NonNullable<NonNullable<WorkflowRunStore['execution']>['results']>[number];

/** One output frame's items as text (its type's text representation), the first RESULT_ITEMS_SHOWN of them. */
function ResultFrame({ result, index }: { result: Result; index: number }) {
  const t = useT('sb-workflows');
  const types = useService(TypeHierarchy);
  const type = typeName(result.content_type);
  const items = result.items as Array<Record<string, unknown>>;
  return (
    <section className="wb-gap" data-testid={`run-result-${result.name || index + 1}`}>
      <H5>
        {result.name || t('run.output_label', { n: index + 1 })} <Tag minimal>{type}</Tag>{' '}
        <span className="wb-muted">{t('run.items', { count: items.length })}</span>
      </H5>
      {items.length > 0 && (
        <HTMLTable compact striped>
          <tbody>
            {items.slice(0, RESULT_ITEMS_SHOWN).map((fields, i) => (
              <tr key={i}>
                <td className="wb-muted">{i + 1}</td>
                <td data-testid="run-result-item">{types.reprOf(type, fields ?? {})}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      {items.length > RESULT_ITEMS_SHOWN && (
        <p className="wb-muted">{t('run.more', { count: items.length - RESULT_ITEMS_SHOWN })}</p>
      )}
    </section>
  );
}

/**
 * The result stage (spec 000 §2, §4): on success the items the execution wrote into each output
 * frame; on failure the spec's message that the execution failed and the provider should be
 * contacted, with what the server said.
 */
export const WorkflowResultStage = observer(function WorkflowResultStage({ store }: { store: WorkflowRunStore }) {
  const t = useT('sb-workflows');
  if (!store.succeeded) {
    return (
      <Callout intent="danger" icon="error" title={String(t('run.failed'))} data-testid="run-failed">
        {store.failureDetails.map((d) => (
          <p key={d}>{d}</p>
        ))}
      </Callout>
    );
  }
  const results = store.execution?.results ?? [];
  return (
    <div data-testid="run-result">
      <Callout intent="success" icon="tick-circle" className="wb-gap">
        {t('run.success')}
      </Callout>
      {results.length === 0 && <p className="wb-muted">{t('run.no_results')}</p>}
      {results.map((r, i) => (
        <ResultFrame key={r.frame} result={r} index={i} />
      ))}
    </div>
  );
});
