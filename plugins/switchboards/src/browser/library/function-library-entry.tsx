import { Icon, Tag } from '@werkbank/sdk/ui';
import { useT } from '@werkbank/sdk/browser';
import { typeName, type FunctionInfo } from '../../common/switchboard-types';

type Port = FunctionInfo['inputs'][number];

/** A port's kind beside its type: optional, a list of frames or a dict of frames. */
function portFlags(p: Port, t: ReturnType<typeof useT>): string {
  return [p.is_optional && t('library.port_optional'), p.is_list && t('library.port_list'), p.is_dict && t('library.port_dict')]
    .filter(Boolean)
    .join(', ');
}

function PortTable({ ports, caption, baseChains }: { ports: Port[]; caption: string; baseChains: Map<string, string[]> }) {
  const t = useT('sb-library');
  if (!ports.length) return <p className="wb-muted">{t('library.no_ports', { what: caption })}</p>;
  return (
    <table className="bp6-html-table bp6-compact wb-library-ports">
      <caption style={{ textAlign: 'start', fontWeight: 600 }}>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{t('library.port_name')}</th>
          <th scope="col">{t('library.port_type')}</th>
          <th scope="col">{t('library.port_based_on')}</th>
          <th scope="col">{t('library.port_kind')}</th>
        </tr>
      </thead>
      <tbody>
        {ports.map((p) => {
          const type = typeName(p.content_type);
          const chain = (baseChains.get(type) ?? []).filter((b) => b !== type);
          return (
            <tr key={p.name} data-testid="library-port">
              <td>
                <code>{p.name}</code>
              </td>
              <td>
                <code>{type}</code>
              </td>
              <td>{chain.length ? chain.join(' → ') : '–'}</td>
              <td>{portFlags(p, t) || t('library.port_required')}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/**
 * One function of the library: a disclosure (native details/summary, so it opens by keyboard)
 * whose summary names it, and whose body holds its whole documentation and its ports with types.
 */
export function FunctionLibraryEntry({ fn, baseChains }: { fn: FunctionInfo; baseChains: Map<string, string[]> }) {
  const t = useT('sb-library');
  const paragraphs = fn.doc
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  return (
    <details className="wb-library-entry" data-testid="library-function" data-name={fn.name}>
      <summary>
        <h3 className="wb-library-title">{fn.verbose_name || fn.name}</h3> <code>{fn.name}</code>{' '}
        <Tag minimal>{fn.namespace}</Tag>
        {paragraphs[0] && <span className="wb-library-short"> — {paragraphs[0]}</span>}
      </summary>
      <div className="wb-library-body">
        {paragraphs.length ? (
          paragraphs.map((p, i) => (
            <p key={i} style={{ whiteSpace: 'pre-wrap' }}>
              {p}
            </p>
          ))
        ) : (
          <p className="wb-muted">{t('library.no_doc')}</p>
        )}
        <PortTable ports={fn.inputs} caption={String(t('library.inputs'))} baseChains={baseChains} />
        <PortTable ports={fn.outputs} caption={String(t('library.outputs'))} baseChains={baseChains} />
        <p className="wb-muted">
          {fn.superuser_required && (
            <>
              <Icon icon="lock" size={12} /> {t('library.superuser_only')}{' '}
            </>
          )}
          {t('library.provided_by', { plugin: fn.plugin ?? '–', version: fn.version })}
        </p>
      </div>
    </details>
  );
}
