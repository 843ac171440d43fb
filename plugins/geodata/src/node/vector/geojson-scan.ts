import { failure } from './vector-params';

/**
 * What the scanner finds in a GeoJSON document: the top-level object's members other than the
 * `features` array (each parsed whole), the start of that array, and its items one by one.
 */
export interface ScanTarget {
  member(key: string, value: unknown): void;
  featuresStart(): void;
  /** Returns true to pause the scanner after this feature (read() returns). */
  feature(value: unknown): boolean;
}

const enum State {
  Start,
  FirstKey,
  Key,
  Colon,
  Member,
  AfterMember,
  FirstFeature,
  Feature,
  AfterFeature,
  End,
}

/** How the value being read ends: at its closing bracket, its closing quote, or the next delimiter. */
const enum Kind {
  Compound,
  String,
  Word,
}

const QUOTE = 34;
const BACKSLASH = 92;

/**
 * Reads a GeoJSON text given in pieces, the way JSON.parse reads one value: the scanner finds where
 * each member of the top-level object and each item of its `features` array begins and ends (its
 * brackets, strings and escapes, carried over from piece to piece) and parses that text with
 * JSON.parse, which is many times faster than a token-by-token parser. Only the current item is
 * held, never the whole text. Broken JSON is a failure naming its line and column: within an item,
 * jsonBreak reads the item's text again to find the first character that cannot continue it;
 * between items the scanner names what it expected.
 */
export class GeoJsonScanner {
  private buf = '';
  private pos = 0;
  /** Line and column (from 1) of buf[0]. */
  private line = 1;
  private column = 1;
  private state = State.Start;
  private key = '';
  private started = false;
  private ended = false;
  /** Whether any text other than whitespace has come. */
  sawText = false;
  // The value being read: where it starts in buf, how it ends, and how far it is scanned.
  private valueStart = -1;
  private kind = Kind.Compound;
  private scanAt = 0;
  private depth = 0;
  private inString = false;

  constructor(private readonly target: ScanTarget) {}

  /** Takes the next piece of text and reads as far as it goes, handing every complete value to the target. */
  push(text: string): void {
    if (!this.started && text) {
      this.started = true;
      // A byte order mark is no JSON (the first text that comes: a decoder may give '' first).
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    this.compact();
    this.buf += text;
  }

  /** The input has ended: the next read() takes what is left and fails on broken or unfinished JSON. */
  end(): void {
    this.ended = true;
  }

  /**
   * Reads the text pushed so far, handing every complete value to the target. Returns true when the
   * target paused it (call again to go on), false when all of the text is read.
   */
  read(): boolean {
    if (this.run(this.ended)) return true;
    if (!this.ended) return false;
    if (this.valueStart >= 0) this.broken(this.buf.slice(this.valueStart), this.valueStart);
    if (this.state === State.Start) throw failure('empty_input');
    if (this.state !== State.End) this.expected(this.buf.length, this.expectation());
    return false;
  }

  /** Drops the text already read (keeping the value in progress), counting its lines and columns. */
  private compact(): void {
    const drop = this.valueStart >= 0 ? this.valueStart : this.pos;
    if (drop === 0) return;
    const { line, column } = this.positionOf(drop);
    this.line = line;
    this.column = column;
    this.buf = this.buf.slice(drop);
    this.pos -= drop;
    this.scanAt -= drop;
    if (this.valueStart >= 0) this.valueStart -= drop;
  }

  /** Line and column of buf[index]. */
  private positionOf(index: number): { line: number; column: number } {
    let line = this.line;
    let lineStart = -1;
    for (let nl = this.buf.indexOf('\n'); nl >= 0 && nl < index; nl = this.buf.indexOf('\n', nl + 1)) {
      line++;
      lineStart = nl;
    }
    return { line, column: lineStart < 0 ? this.column + index : index - lineStart };
  }

  /** Reads on until the text ends (false) or the target pauses (true). */
  private run(atEnd: boolean): boolean {
    const buf = this.buf;
    for (;;) {
      if (this.valueStart >= 0) {
        const end = this.scanValue(atEnd);
        if (end < 0) return false;
        const start = this.valueStart;
        this.valueStart = -1;
        this.pos = end;
        if (this.take(buf.slice(start, end), start)) return true;
        continue;
      }
      let i = this.pos;
      while (i < buf.length && isSpace(buf.charCodeAt(i))) i++;
      this.pos = i;
      if (i >= buf.length) return false;
      this.sawText = true;
      const c = buf[i];
      switch (this.state) {
        case State.Start:
          if (c !== '{') {
            if ('["-0123456789tfn'.includes(c)) throw failure('not_geojson');
            this.expected(i, 'a value');
          }
          this.state = State.FirstKey;
          this.pos = i + 1;
          break;
        case State.FirstKey:
        case State.Key:
          if (c === '}' && this.state === State.FirstKey) {
            this.state = State.End;
            this.pos = i + 1;
          } else if (c === '"') this.begin(i, Kind.String);
          else this.expected(i, 'an object key');
          break;
        case State.Colon:
          if (c !== ':') this.expected(i, "':'");
          this.state = State.Member;
          this.pos = i + 1;
          break;
        case State.Member:
          if (this.key === 'features' && c === '[') {
            this.target.featuresStart();
            this.state = State.FirstFeature;
            this.pos = i + 1;
          } else this.beginValue(i);
          break;
        case State.AfterMember:
          this.separator(i, '}', State.Key, State.End);
          break;
        case State.FirstFeature:
        case State.Feature:
          if (c === ']' && this.state === State.FirstFeature) {
            this.state = State.AfterMember;
            this.pos = i + 1;
          } else this.beginValue(i);
          break;
        case State.AfterFeature:
          this.separator(i, ']', State.Feature, State.AfterMember);
          break;
        case State.End:
          this.expected(i, 'the end of the text');
      }
    }
  }

  /** After a value: a comma goes on to `next`, the closing bracket `close` to `closed`. */
  private separator(at: number, close: string, next: State, closed: State): void {
    const c = this.buf[at];
    if (c === ',') this.state = next;
    else if (c === close) this.state = closed;
    else this.expected(at, `',' or '${close}'`);
    this.pos = at + 1;
  }

  private beginValue(at: number): void {
    const c = this.buf.charCodeAt(at);
    this.begin(at, c === 123 || c === 91 ? Kind.Compound : c === QUOTE ? Kind.String : Kind.Word);
  }

  private begin(at: number, kind: Kind): void {
    this.valueStart = at;
    this.kind = kind;
    this.scanAt = kind === Kind.Word ? at : at + 1;
    this.depth = 1;
    this.inString = kind === Kind.String;
  }

  /** Where the value in progress ends (the index after it), or -1 when its end has not come yet. */
  private scanValue(atEnd: boolean): number {
    const buf = this.buf;
    let i = this.scanAt;
    if (this.kind === Kind.Word) {
      while (i < buf.length && !isDelimiter(buf.charCodeAt(i))) i++;
      if (i < buf.length || atEnd) return i;
      this.scanAt = i;
      return -1;
    }
    let depth = this.depth;
    let inString = this.inString;
    while (i < buf.length) {
      if (inString) {
        const quote = buf.indexOf('"', i);
        if (quote < 0) {
          i = buf.length;
          break;
        }
        let k = quote - 1;
        while (buf.charCodeAt(k) === BACKSLASH) k--;
        i = quote + 1;
        // An even number of backslashes before the quote: they escape each other, not the quote.
        if ((quote - 1 - k) % 2 === 0) {
          inString = false;
          if (this.kind === Kind.String) return i;
        }
        continue;
      }
      const c = buf.charCodeAt(i++);
      if (c === QUOTE) inString = true;
      else if (c === 123 || c === 91) depth++;
      else if ((c === 125 || c === 93) && --depth === 0) return i;
    }
    this.scanAt = i;
    this.depth = depth;
    this.inString = inString;
    return -1;
  }

  /** A complete value: a key, a member's value or a feature. True when the target pauses. */
  private take(text: string, at: number): boolean {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.broken(text, at);
    }
    switch (this.state) {
      case State.FirstKey:
      case State.Key:
        this.key = value as string;
        this.state = State.Colon;
        break;
      case State.Member:
        this.target.member(this.key, value);
        this.state = State.AfterMember;
        break;
      default:
        this.state = State.AfterFeature;
        return this.target.feature(value);
    }
    return false;
  }

  /** What the scanner waits for in its state (for a text that ends too early). */
  private expectation(): string {
    switch (this.state) {
      case State.FirstKey:
        return "an object key or '}'";
      case State.Key:
        return 'an object key';
      case State.Colon:
        return "':'";
      case State.AfterMember:
        return "',' or '}'";
      case State.AfterFeature:
        return "',' or ']'";
      default:
        return 'a value';
    }
  }

  private expected(index: number, what: string): never {
    throw failure('invalid_json', { ...this.positionOf(index), reason: `expected ${what}` });
  }

  /** The value `text` starting at buf[at] is no JSON (or ends with the input): names where it breaks. */
  private broken(text: string, at: number): never {
    const { index, reason } = jsonBreak(text);
    throw failure('invalid_json', { ...this.positionOf(at + index), reason });
  }
}

/**
 * Where the JSON value `text` breaks (RFC 8259): the index of the first character that cannot
 * continue it (the length when it ends too early) and why. Only broken values come here, so it is
 * written for clear answers, not speed.
 */
export function jsonBreak(text: string): { index: number; reason: string } {
  let i = 0;
  class Break {
    constructor(
      readonly index: number,
      readonly reason: string,
    ) {}
  }
  const fail = (reason: string): never => {
    if (i >= text.length) throw new Break(text.length, 'the text ends too early');
    const c = text.charCodeAt(i);
    const shown = c < 0x20 ? `U+${c.toString(16).toUpperCase().padStart(4, '0')}` : `'${text[i]}'`;
    throw new Break(i, `${reason}, not ${shown}`);
  };
  const space = () => {
    while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  };
  // A broken word (`nul`, `tru`) is named at its start.
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else throw new Break(i, `expected ${word}`);
  };
  const digits = (what: string) => {
    if (!/[0-9]/.test(text[i] ?? '')) fail(what);
    while (/[0-9]/.test(text[i] ?? '')) i++;
  };
  const string = () => {
    i++;
    for (;;) {
      if (i >= text.length) fail('');
      const c = text.charCodeAt(i);
      if (c === QUOTE) return void i++;
      if (c < 0x20) fail('a control character must be escaped in a string');
      if (c === BACKSLASH) {
        i++;
        if (text[i] === 'u') {
          i++;
          for (let k = 0; k < 4; k++, i++) if (!/[0-9a-fA-F]/.test(text[i] ?? '')) fail('expected a hex digit');
        } else if ('"\\/bfnrt'.includes(text[i] ?? '') && i < text.length) i++;
        else fail('expected an escape sequence');
      } else i++;
    }
  };
  const value = (): void => {
    space();
    const c = text[i];
    if (c === '{') {
      i++;
      space();
      if (text[i] === '}') return void i++;
      for (;;) {
        space();
        if (text[i] !== '"') fail('expected an object key');
        string();
        space();
        if (text[i] !== ':') fail("expected ':'");
        i++;
        value();
        space();
        if (text[i] === '}') return void i++;
        if (text[i] !== ',') fail("expected ',' or '}'");
        i++;
      }
    }
    if (c === '[') {
      i++;
      space();
      if (text[i] === ']') return void i++;
      for (;;) {
        value();
        space();
        if (text[i] === ']') return void i++;
        if (text[i] !== ',') fail("expected ',' or ']'");
        i++;
      }
    }
    if (c === '"') return string();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    if (c === '-' || /[0-9]/.test(c ?? '')) {
      if (c === '-') i++;
      if (text[i] === '0') i++;
      else digits('expected a digit');
      if (text[i] === '.') {
        i++;
        digits('expected a digit after the decimal point');
      }
      if (text[i] === 'e' || text[i] === 'E') {
        i++;
        if (text[i] === '+' || text[i] === '-') i++;
        digits('expected a digit of the exponent');
      }
      return;
    }
    fail('expected a value');
  };
  try {
    value();
    space();
    if (i < text.length) fail('expected the end of the value');
  } catch (e) {
    if (e instanceof Break) return { index: e.index, reason: e.reason };
    throw e;
  }
  // JSON.parse refused what this reads as JSON (it should not happen): the value's start.
  return { index: 0, reason: 'not valid JSON' };
}

const isSpace = (c: number): boolean => c === 32 || c === 10 || c === 13 || c === 9;

/** Where a bare word (number, true, false, null) ends. */
const isDelimiter = (c: number): boolean => c === 44 || c === 125 || c === 93 || isSpace(c);
