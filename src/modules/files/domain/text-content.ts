import { isUtf8 } from 'node:buffer';

/**
 * Checks, as the bytes arrive, that content declared as text is what it claims: UTF-8 text for the
 * text types, and a JSON document for `application/json`. Memory stays constant whatever the size
 * (JSON is checked by a syntax scanner that builds nothing).
 */
export interface TextContentCheck {
  /** Why the content is refused, or null while it may still be valid. */
  push(chunk: Uint8Array): string | null;
  /** Why the whole content is refused, or null when it is valid. */
  end(): string | null;
}

const UTF8_TEXT_TYPES = new Set(['text/plain', 'text/markdown', 'text/csv', 'text/tab-separated-values']);
const JSON_TYPE = 'application/json';

/** Deeper JSON is refused: the scanner keeps one byte per open container. */
export const JSON_DEPTH_MAX = 1_000;

export function textContentCheck(contentType: string): TextContentCheck | null {
  if (UTF8_TEXT_TYPES.has(contentType)) return new Utf8BytesCheck(contentType);
  if (contentType === JSON_TYPE) return new Utf8TextCheck(contentType, new JsonSyntaxScanner());
  return null;
}

/**
 * UTF-8 without NUL, checked on the bytes without decoding them (uploads of text run at disk
 * speed): a character cut by a chunk's end is checked with the next chunk.
 */
class Utf8BytesCheck implements TextContentCheck {
  private carried: Buffer = Buffer.alloc(0);

  constructor(private readonly contentType: string) {}

  push(chunk: Uint8Array): string | null {
    const bytes =
      this.carried.length > 0
        ? Buffer.concat([this.carried, chunk])
        : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    const complete = lastCharacterEnd(bytes);
    const whole = bytes.subarray(0, complete);
    this.carried = Buffer.from(bytes.subarray(complete));
    if (!isUtf8(whole)) return `The content is not UTF-8 text, as ${this.contentType} must be.`;
    if (whole.includes(0)) return `The content holds NUL bytes: it is not ${this.contentType} text.`;
    return null;
  }

  end(): string | null {
    return this.carried.length > 0 ? `The content is not UTF-8 text, as ${this.contentType} must be.` : null;
  }
}

/** Where the bytes' last whole character ends: before a sequence its lead byte says is unfinished. */
function lastCharacterEnd(bytes: Buffer): number {
  for (let start = bytes.length - 1; start >= Math.max(0, bytes.length - 4); start -= 1) {
    const byte = bytes[start];
    if ((byte & 0xc0) === 0x80) continue;
    const length = byte < 0x80 ? 1 : byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return start + length > bytes.length ? start : bytes.length;
  }
  // Only continuation bytes at the end: invalid, which the check finds.
  return bytes.length;
}

/** Receives the decoded text piece by piece; returns why it is refused, or null. */
interface TextScanner {
  scan(text: string): string | null;
  end(): string | null;
}

class Utf8TextCheck implements TextContentCheck {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });

  constructor(
    private readonly contentType: string,
    private readonly scanner: TextScanner,
  ) {}

  push(chunk: Uint8Array): string | null {
    return this.check(() => this.decoder.decode(chunk, { stream: true }));
  }

  end(): string | null {
    return this.check(() => this.decoder.decode()) ?? this.scanner.end();
  }

  private check(decode: () => string): string | null {
    let text: string;
    try {
      text = decode();
    } catch {
      return `The content is not UTF-8 text, as ${this.contentType} must be.`;
    }
    // A NUL byte is valid UTF-8 but marks binary content, not text.
    if (text.includes('\u0000')) return `The content holds NUL bytes: it is not ${this.contentType} text.`;
    return this.scanner.scan(text);
  }
}

const enum Expect {
  Value,
  ValueOrArrayEnd,
  KeyOrObjectEnd,
  Key,
  Colon,
  CommaOrEnd,
  Done,
}

const enum NumberPart {
  Minus,
  Zero,
  Integer,
  Dot,
  Fraction,
  E,
  ExponentSign,
  Exponent,
}

const ARRAY = 0;
const OBJECT = 1;
const ESCAPABLE = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
const HEX = /^[0-9A-Fa-f]$/;
// eslint-disable-next-line no-control-regex -- control characters are what ends a run
const PLAIN_STRING_RUN = /[^"\\\u0000-\u001f]*/y;
const LITERALS: Record<string, string> = { t: 'true', f: 'false', n: 'null' };

const isDigit = (char: string) => char >= '0' && char <= '9';
const isWhitespace = (char: string) => char === ' ' || char === '\t' || char === '\n' || char === '\r';

/** JSON's grammar (RFC 8259), one character at a time, across chunk boundaries. */
class JsonSyntaxScanner implements TextScanner {
  private readonly containers = new Uint8Array(JSON_DEPTH_MAX);
  private depth = 0;
  private expect = Expect.Value;
  private offset = 0;
  private inString = false;
  private stringIsKey = false;
  private escaped = false;
  private hexDigitsLeft = 0;
  private numberPart: NumberPart | null = null;
  private literal: string | null = null;
  private literalMatched = 0;

  scan(text: string): string | null {
    let index = 0;
    while (index < text.length) {
      if (this.inString && !this.escaped && this.hexDigitsLeft === 0) {
        // Most of a document is plain string content: skipped in one step, not one call per character.
        PLAIN_STRING_RUN.lastIndex = index;
        PLAIN_STRING_RUN.exec(text);
        const run = PLAIN_STRING_RUN.lastIndex - index;
        if (run > 0) {
          index += run;
          this.offset += run;
          continue;
        }
      }
      const error = this.step(text[index]);
      if (error) return `The content is not valid JSON: ${error} at character ${this.offset}.`;
      index += 1;
      this.offset += 1;
    }
    return null;
  }

  end(): string | null {
    const error = this.finishNumber() ?? (this.inString || this.literal ? 'it ends inside a value' : null);
    if (error) return `The content is not valid JSON: ${error}.`;
    if (this.expect !== Expect.Done)
      return 'The content is not valid JSON: it ends before the document does.';
    return null;
  }

  private step(char: string): string | null {
    if (this.inString) return this.stringStep(char);
    if (this.literal !== null) {
      if (char !== this.literal[this.literalMatched]) return `unexpected "${char}" in ${this.literal}`;
      this.literalMatched += 1;
      if (this.literalMatched === this.literal.length) {
        this.literal = null;
        this.afterValue();
      }
      return null;
    }
    if (this.numberPart !== null) {
      if (this.numberStep(char)) return null;
      const error = this.finishNumber();
      if (error) return error;
    }
    if (isWhitespace(char)) return null;
    switch (this.expect) {
      case Expect.ValueOrArrayEnd:
        if (char === ']') return this.close(ARRAY);
        return this.startValue(char);
      case Expect.Value:
        return this.startValue(char);
      case Expect.KeyOrObjectEnd:
        if (char === '}') return this.close(OBJECT);
        return this.startKey(char);
      case Expect.Key:
        return this.startKey(char);
      case Expect.Colon:
        if (char !== ':') return `expected ":" but found "${char}"`;
        this.expect = Expect.Value;
        return null;
      case Expect.CommaOrEnd: {
        const container = this.containers[this.depth - 1];
        if (char === ',') {
          this.expect = container === ARRAY ? Expect.Value : Expect.Key;
          return null;
        }
        if (char === ']' || char === '}') return this.close(char === ']' ? ARRAY : OBJECT);
        return `expected "," or the end of the ${container === ARRAY ? 'array' : 'object'} but found "${char}"`;
      }
      case Expect.Done:
        return `unexpected "${char}" after the document`;
    }
  }

  private startValue(char: string): string | null {
    if (char === '{' || char === '[') {
      if (this.depth === JSON_DEPTH_MAX) return `it is nested deeper than ${JSON_DEPTH_MAX} levels`;
      this.containers[this.depth++] = char === '[' ? ARRAY : OBJECT;
      this.expect = char === '[' ? Expect.ValueOrArrayEnd : Expect.KeyOrObjectEnd;
      return null;
    }
    if (char === '"') {
      this.inString = true;
      this.stringIsKey = false;
      return null;
    }
    if (char === '-' || isDigit(char)) {
      this.numberPart = char === '-' ? NumberPart.Minus : char === '0' ? NumberPart.Zero : NumberPart.Integer;
      return null;
    }
    if (char in LITERALS) {
      this.literal = LITERALS[char];
      this.literalMatched = 1;
      return null;
    }
    return `unexpected "${char}" where a value belongs`;
  }

  private startKey(char: string): string | null {
    if (char !== '"') return `expected a key in double quotes but found "${char}"`;
    this.inString = true;
    this.stringIsKey = true;
    return null;
  }

  private stringStep(char: string): string | null {
    if (this.hexDigitsLeft > 0) {
      if (!HEX.test(char)) return `"${char}" in a \\u escape`;
      this.hexDigitsLeft -= 1;
    } else if (this.escaped) {
      if (char === 'u') this.hexDigitsLeft = 4;
      else if (!ESCAPABLE.has(char)) return `unknown escape "\\${char}"`;
      this.escaped = false;
    } else if (char === '\\') {
      this.escaped = true;
    } else if (char === '"') {
      this.inString = false;
      if (this.stringIsKey) this.expect = Expect.Colon;
      else this.afterValue();
    } else if (char < ' ') {
      return 'a control character inside a string';
    }
    return null;
  }

  /** True when `char` continues the number. */
  private numberStep(char: string): boolean {
    const digit = isDigit(char);
    switch (this.numberPart) {
      case NumberPart.Minus:
        if (!digit) return false;
        this.numberPart = char === '0' ? NumberPart.Zero : NumberPart.Integer;
        return true;
      case NumberPart.Zero:
      case NumberPart.Integer:
        if (digit && this.numberPart === NumberPart.Integer) return true;
        if (char === '.') this.numberPart = NumberPart.Dot;
        else if (char === 'e' || char === 'E') this.numberPart = NumberPart.E;
        else return false;
        return true;
      case NumberPart.Dot:
      case NumberPart.Fraction:
        if (digit) this.numberPart = NumberPart.Fraction;
        else if (this.numberPart === NumberPart.Fraction && (char === 'e' || char === 'E'))
          this.numberPart = NumberPart.E;
        else return false;
        return true;
      case NumberPart.E:
        if (char === '+' || char === '-') this.numberPart = NumberPart.ExponentSign;
        else if (digit) this.numberPart = NumberPart.Exponent;
        else return false;
        return true;
      case NumberPart.ExponentSign:
      case NumberPart.Exponent:
        if (!digit) return false;
        this.numberPart = NumberPart.Exponent;
        return true;
      case null:
        return false;
    }
  }

  /** Ends the number under way, if any; an error when it stops half-way (`-`, `1.`, `1e`). */
  private finishNumber(): string | null {
    if (this.numberPart === null) return null;
    const complete = [NumberPart.Zero, NumberPart.Integer, NumberPart.Fraction, NumberPart.Exponent];
    if (!complete.includes(this.numberPart)) return 'an incomplete number';
    this.numberPart = null;
    this.afterValue();
    return null;
  }

  private close(container: number): string | null {
    this.depth -= 1;
    this.afterValue();
    return this.containers[this.depth] === container ? null : 'a bracket that closes nothing open';
  }

  private afterValue(): void {
    this.expect = this.depth === 0 ? Expect.Done : Expect.CommaOrEnd;
  }
}
