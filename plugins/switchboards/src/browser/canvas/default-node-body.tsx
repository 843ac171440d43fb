import type { NodeRendererProps } from '@werkbank/sdk/browser';

/** spec 000 §4: a node not yet successful shows its progress and exception text (cut with an ellipsis). */
export function DefaultNodeBody({ node }: NodeRendererProps) {
  if (node.status === 'success') return null;
  return (
    <div className="wb-node-body">
      {node.runinfo.progress !== null && <div className="wb-node-progress">{node.runinfo.progress.toFixed(1)} %</div>}
      {node.runinfo.exception && (
        <div className="wb-node-exception" title={node.runinfo.exception}>
          {node.runinfo.exception}
        </div>
      )}
    </div>
  );
}
