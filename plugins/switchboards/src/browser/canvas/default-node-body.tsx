import { I18nService, useService, type NodeRendererProps } from '@werkbank/sdk/browser';
import { formatPercent } from '../../common/format-percent';

/** spec 000 §4: a node not yet successful shows its progress and exception text (cut with an ellipsis). */
export function DefaultNodeBody({ node }: NodeRendererProps) {
  const lang = useService(I18nService).language;
  if (node.status === 'success') return null;
  return (
    <div className="wb-node-body">
      {node.runinfo.progress !== null && <div className="wb-node-progress">{formatPercent(node.runinfo.progress, lang)}</div>}
      {node.runinfo.exception && (
        <div className="wb-node-exception" title={node.runinfo.exception}>
          {node.runinfo.exception}
        </div>
      )}
    </div>
  );
}
