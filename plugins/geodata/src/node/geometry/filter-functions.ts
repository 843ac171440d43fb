import type { FunctionDescriptor } from '@werkbank/sdk/node';
import { evaluateFilter } from './filter-evaluate';
import { parseFilter, type FilterNode } from './filter-parser';
import { FilterSyntaxError } from './filter-tokenizer';
import { datum, eachChunked, failure, itemsOf, paramOf, type GeoFeature } from './geometry-items';
import { featuresPort, param } from './ports';

/** The parsed expression; a syntax mistake becomes a failure naming its column. */
function parsed(source: string): FilterNode {
  try {
    return parseFilter(source);
  } catch (e) {
    if (!(e instanceof FilterSyntaxError)) throw e;
    throw failure(`filter_${e.code}`, { column: e.column, ...e.params });
  }
}

export const FILTER_FUNCTIONS: FunctionDescriptor[] = [
  {
    id: 'feature.filter',
    version: '1',
    verbose_name: { de: 'Features filtern', en: 'Filter features' },
    doc: {
      de: "Behält die Features, deren Eigenschaften den Ausdruck erfüllen, z. B. `art = 'Wald' and (flaeche >= 1000 or not geschuetzt)`. Vergleiche = != < <= > >=, and/or/not, Klammern, Texte in '…', Zahlen, true/false/null, Eigenschaften bloß oder in \"…\", `x in (1, 2)`, `name like 'Ber%'` (% beliebig viele Zeichen, _ genau eines). Fehlende Eigenschaften sind null; < und > vergleichen nur Zahlen mit Zahlen und Texte mit Texten. Höchstens 10 000 Zeichen und 50 Klammerebenen.",
      en: "Keeps the features whose properties satisfy the expression, e.g. `kind = 'forest' and (area >= 1000 or not protected)`. Comparisons = != < <= > >=, and/or/not, parentheses, texts in '…', numbers, true/false/null, properties bare or in \"…\", `x in (1, 2)`, `name like 'Ber%'` (% any run of characters, _ exactly one). Missing properties are null; < and > compare only numbers with numbers and texts with texts. At most 10,000 characters and 50 levels of nesting.",
    },
    inputs: [featuresPort(), param('expression', 'string')],
    outputs: [featuresPort()],
    run: async (inputs, ctx) => {
      const items = itemsOf(inputs, 'features');
      const tree = parsed(String(paramOf(inputs, 'expression')));
      const features = await eachChunked(items.length, ctx, (i) => {
        const f = items[i]?.feature as GeoFeature | undefined;
        if (!f || typeof f !== 'object' || f.type !== 'Feature') throw failure('not_a_feature', { item: `features[${i}]` });
        return evaluateFilter(tree, f.properties ?? {}) ? datum(f) : undefined;
      });
      return { features };
    },
  },
];
