import assert from 'node:assert/strict';
import { evaluateFilter, matchesLike } from './filter-evaluate';
import { MAX_FILTER_DEPTH, parseFilter } from './filter-parser';
import { FilterSyntaxError, MAX_FILTER_LENGTH } from './filter-tokenizer';

const passes = (expression: string, props: Record<string, unknown>) => evaluateFilter(parseFilter(expression), props);

/** assert.throws predicate: a FilterSyntaxError with `code` at `column`. */
const syntax = (code: string, column: number) => (e: unknown) => {
  assert.ok(e instanceof FilterSyntaxError, String(e));
  assert.deepEqual([e.code, e.column], [code, column]);
  return true;
};

describe('geodata feature.filter: parser and evaluation', () => {
  const props = { kind: 'forest', area: 1200, protected: false, name: 'Berlin Mitte', 'Name mit Leerzeichen': 'x', none: null };

  it('compares numbers, texts, booleans and null', () => {
    assert.equal(passes("kind = 'forest'", props), true);
    assert.equal(passes('area >= 1200 and area < 1201', props), true);
    assert.equal(passes('area > 1200', props), false);
    assert.equal(passes('protected = false', props), true);
    assert.equal(passes('missing = null and none = null', props), true);
    assert.equal(passes("kind != 'lake' and kind <> 'lake'", props), true);
    assert.equal(passes('"Name mit Leerzeichen" = \'x\'', props), true);
    assert.equal(passes("'it''s' = 'it''s'", {}), true);
  });

  it('compares strictly: no coercion between numbers and texts', () => {
    assert.equal(passes("area = '1200'", props), false);
    assert.equal(passes("area > 'a'", props), false);
    assert.equal(passes('none < 1 or none >= 1', props), false);
  });

  it('honours precedence: not before and before or; parentheses override', () => {
    assert.equal(passes("kind = 'lake' and area > 0 or area > 1000", props), true);
    assert.equal(passes("kind = 'lake' and (area > 0 or area > 1000)", props), false);
    assert.equal(passes('not protected and not not true', props), true);
    assert.equal(passes('NOT (area > 1000) OR Kind = 1', props), false, 'keywords are case-insensitive, names are not');
  });

  it('supports in (…) and like with % and _', () => {
    assert.equal(passes("kind in ('lake', 'forest')", props), true);
    assert.equal(passes('area not in (1, 2, -3.5e2)', props), true);
    assert.equal(passes("name like 'Ber%'", props), true);
    assert.equal(passes("name like '%Mitt_'", props), true);
    assert.equal(passes("name not like 'ber%'", props), true);
    assert.equal(passes("area like '1%'", props), false, 'like only matches texts');
  });

  it('matches like patterns without blowing up on hostile patterns', () => {
    assert.equal(matchesLike('', '%'), true);
    assert.equal(matchesLike('abc', 'a%c%'), true);
    assert.equal(matchesLike('abc', 'a_'), false);
    assert.equal(matchesLike('a'.repeat(5000), `${'%a'.repeat(2000)}b`), false);
  });

  it('names the column of a syntax error', () => {
    assert.throws(() => parseFilter("kind = 'forest"), syntax('unterminated_string', 8));
    assert.throws(() => parseFilter('area > 1 and'), syntax('unexpected_end', 13));
    assert.throws(() => parseFilter('(area > 1'), syntax('unexpected_end', 10));
    assert.throws(() => parseFilter('area > 1 area'), syntax('expected_end', 10));
    assert.throws(() => parseFilter('area ; 1'), syntax('unexpected_char', 6));
    assert.throws(() => parseFilter('kind in 1'), syntax('expected_list', 9));
    assert.throws(() => parseFilter('kind in (a)'), syntax('expected_literal', 10));
    assert.throws(() => parseFilter('kind like 3'), syntax('expected_pattern', 11));
    assert.throws(() => parseFilter('x = 12abc'), syntax('invalid_number', 5));
    assert.throws(() => parseFilter('= 1'), syntax('expected_literal', 1));
    assert.throws(() => parseFilter(''), syntax('unexpected_end', 1));
    assert.throws(() => parseFilter('"name'), syntax('unterminated_name', 1));
  });

  it('refuses hostile input: deep nesting and very long expressions', () => {
    const ok = `${'('.repeat(MAX_FILTER_DEPTH)}a = 1${')'.repeat(MAX_FILTER_DEPTH)}`;
    assert.equal(evaluateFilter(parseFilter(ok), { a: 1 }), true);
    const deep = `${'('.repeat(100_000)}a = 1${')'.repeat(100_000)}`.slice(0, MAX_FILTER_LENGTH);
    assert.throws(() => parseFilter(deep), syntax('too_deep', MAX_FILTER_DEPTH + 1));
    assert.throws(() => parseFilter(`${'not '.repeat(MAX_FILTER_DEPTH + 1)}true`), syntax('too_deep', MAX_FILTER_DEPTH * 4 + 1));
    assert.throws(() => parseFilter(`a = '${'x'.repeat(MAX_FILTER_LENGTH)}'`), syntax('too_long', MAX_FILTER_LENGTH + 1));
    const long = Array.from({ length: 900 }, () => 'a = 1').join(' or ');
    assert.equal(evaluateFilter(parseFilter(long), { a: 1 }), true, 'long flat chains are fine');
  });

  it('cannot reach code: names are only looked up as own properties', () => {
    assert.equal(passes('constructor = null and __proto__ = null', {}), true);
    assert.throws(() => parseFilter('process.exit(1)'), syntax('expected_end', 13));
  });
});
