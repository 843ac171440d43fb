import { useT, type NodeRendererProps } from '@werkbank/sdk/browser';

/** How many characters of a result the node shows. */
export const RESULT_PREVIEW_LENGTH = 60;

/**
 * The body of a basic function's node: its result, live (the text of the frames it writes, updated
 * as the run finishes). While it is not successful it shows the progress and exception instead,
 * like the default body.
 */
export function ResultPreviewBody({ node, outputs }: NodeRendererProps) {
  const t = useT('basic-functions');
  if (node.status !== 'success') {
    return (
      <div className="wb-node-body">
        {node.runinfo.exception && (
          <div className="wb-node-exception" title={node.runinfo.exception}>
            {node.runinfo.exception}
          </div>
        )}
      </div>
    );
  }
  if (!outputs.length) return <div className="wb-node-body wb-muted">{t('preview.no_output')}</div>;
  return (
    <div className="wb-node-body" data-testid="result-preview">
      {outputs.map((o) => {
        const text = o.text_repr.length > RESULT_PREVIEW_LENGTH ? `${o.text_repr.slice(0, RESULT_PREVIEW_LENGTH)}…` : o.text_repr;
        return (
          <div key={`${o.port}:${o.frame}`} className="wb-result-preview" title={o.text_repr}>
            <span className="wb-port-type">{o.port} =</span> <strong>{text || t('preview.empty')}</strong>
            {o.size > 1 && <span className="wb-muted"> {t('preview.items', { count: o.size })}</span>}
          </div>
        );
      })}
    </div>
  );
}
