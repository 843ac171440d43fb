// #region node-renderer
import { ProgressBar } from '@werkbank/sdk/ui';
import { useT, type NodeRendererContribution, type NodeRendererProps } from '@werkbank/sdk/browser';

/**
 * The body of a `hello.greet` node on the canvas: a progress bar while it runs, then the first
 * greeting it wrote and how many. `outputs` are the frames the node writes, updated live.
 */
export function GreetNodeBody({ node, outputs }: NodeRendererProps) {
  const t = useT('hello');
  const written = outputs.find((o) => o.port === 'greetings');
  if (node.runinfo.progress !== null && node.status !== 'success')
    return (
      <div className="wb-node-body" data-testid="greet-node-progress">
        <ProgressBar value={node.runinfo.progress} animate={false} />
        {t('node.progress', { percent: Math.round(node.runinfo.progress * 100) })}
      </div>
    );
  if (!written || written.size === 0) return null;
  return (
    <div className="wb-node-body" data-testid="greet-node-result" title={written.text_repr}>
      {t('node.written', { count: written.size })}
    </div>
  );
}

/** Claims the nodes of `hello.greet`; above the canvas's default renderer (priority 0). */
export const helloNodeRenderers: NodeRendererContribution = {
  registerNodeRenderers: (registry) =>
    registry.add({ id: 'hello.greet-node', functions: ['hello.greet'], priority: 10, component: GreetNodeBody }),
};
// #endregion node-renderer
