import { SHAPE_PATHS } from '../common/style-shapes';
import {
  symbolizersOf,
  UnknownSymbolTypeError,
  type GeometryKind,
  type StyleSymbol,
  type Symbolizer,
} from '../common/style-model';

/**
 * A rule's legend swatch: what its symbol draws for the layer's geometry kind, as a 28 px SVG
 * (an area, a line, or the point's mark or icon; "Aa" beside it when the rule labels).
 */
export function LegendSwatch({ symbol, kind, label }: { symbol: StyleSymbol; kind: GeometryKind; label: string }) {
  let parts: Symbolizer[];
  try {
    parts = symbolizersOf(symbol, kind);
  } catch (e) {
    if (e instanceof UnknownSymbolTypeError) parts = [];
    else throw e;
  }
  const shapes = parts.map((s, i) => {
    switch (s.kind) {
      case 'polygon':
        return (
          <rect
            key={i}
            x={3}
            y={3}
            width={22}
            height={22}
            fill={s.fill}
            fillOpacity={s.fillOpacity}
            stroke={s.stroke}
            strokeOpacity={s.strokeOpacity}
            strokeWidth={Math.min(s.strokeWidth, 6)}
            strokeDasharray={s.dash?.join(' ')}
          />
        );
      case 'line':
        return (
          <path
            key={i}
            d="M2 22 L10 8 L18 18 L26 4"
            fill="none"
            stroke={s.stroke}
            strokeOpacity={s.strokeOpacity}
            strokeWidth={Math.min(s.strokeWidth, 8)}
            strokeDasharray={s.dash?.join(' ')}
          />
        );
      case 'mark': {
        const scale = Math.min(s.radius * 2, 26) / 24;
        return (
          <path
            key={i}
            d={SHAPE_PATHS[s.mark]}
            fillRule="evenodd"
            transform={`translate(${14 - 12 * scale} ${14 - 12 * scale}) scale(${scale})`}
            fill={s.fill}
            fillOpacity={s.fillOpacity}
            stroke={s.stroke}
            strokeOpacity={s.strokeOpacity}
            strokeWidth={s.strokeWidth / scale}
          />
        );
      }
      case 'icon':
        return s.url ? (
          <image key={i} href={s.url} x={2} y={2} width={24} height={24} opacity={s.opacity} />
        ) : (
          <path
            key={i}
            d={SHAPE_PATHS[s.icon ?? 'marker']}
            fillRule="evenodd"
            transform="translate(2 2)"
            fill={s.fill}
            opacity={s.opacity}
          />
        );
      default:
        return null;
    }
  });
  const labelled = parts.find((s) => s.kind === 'label');
  return (
    <svg
      width={labelled ? 48 : 28}
      height={28}
      viewBox={`0 0 ${labelled ? 48 : 28} 28`}
      role="img"
      aria-label={label}
      className="wb-style-legend"
    >
      {shapes}
      {labelled && labelled.kind === 'label' && (
        <text
          x={30}
          y={20}
          fontSize={13}
          fill={labelled.fill}
          stroke={labelled.halo?.fill}
          strokeWidth={labelled.halo ? Math.min(labelled.halo.radius, 3) : 0}
          paintOrder="stroke"
        >
          Aa
        </text>
      )}
    </svg>
  );
}
