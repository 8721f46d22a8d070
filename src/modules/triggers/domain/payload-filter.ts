/**
 * A webhook trigger's `filter`: a condition on the payload, parsed when the trigger is written and
 * evaluated on each delivery. No code is evaluated; the grammar is:
 *
 *   condition  := or
 *   or         := and ("||" and)*
 *   and        := unary ("&&" unary)*
 *   unary      := "!" unary | "(" or ")" | comparison
 *   comparison := path [("==" | "!=" | "<" | "<=" | ">" | ">=") literal | "in" "[" literal ("," literal)* "]"]
 *   path       := "$" ("." name | "[" integer "]" | "[" string "]")*
 *   literal    := string (JSON, double quotes) | number | true | false | null
 *
 * A bare path holds when the value there is present and neither false, null, 0 nor "".
 */

export type Literal = string | number | boolean | null;
type Segment = string | number;
type Operator = '==' | '!=' | '<' | '<=' | '>' | '>=';

export type PayloadFilter =
  | { kind: 'or' | 'and'; operands: PayloadFilter[] }
  | { kind: 'not'; operand: PayloadFilter }
  | { kind: 'truthy'; path: Segment[] }
  | { kind: 'compare'; path: Segment[]; operator: Operator; value: Literal }
  | { kind: 'in'; path: Segment[]; values: Literal[] };

/** A filter that does not parse: `message` says where and what was expected. */
export class FilterSyntaxError extends Error {}

/** Nesting (parentheses and negations) a filter may use: far beyond any real condition. */
export const FILTER_MAX_DEPTH = 16;

const TOKEN =
  /\s*(?:(\|\||&&|==|!=|<=|>=|<|>|!|\(|\)|\[|\]|,|\$|\.)|("(?:[^"\\\p{Cc}]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*")|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|([A-Za-z_][A-Za-z0-9_-]*))/uy;

interface Token {
  text: string;
  kind: 'symbol' | 'string' | 'number' | 'word';
  at: number;
}

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  let at = 0;
  while (at < source.length) {
    if (/^\s*$/.test(source.slice(at))) break;
    TOKEN.lastIndex = at;
    const match = TOKEN.exec(source);
    if (!match) {
      const start = at + (source.slice(at).length - source.slice(at).trimStart().length);
      throw new FilterSyntaxError(`unexpected character "${source[start]}" at position ${start + 1}`);
    }
    const start = TOKEN.lastIndex - match[0].trimStart().length;
    const [, symbol, string, number, word] = match;
    if (symbol !== undefined) tokens.push({ text: symbol, kind: 'symbol', at: start });
    else if (string !== undefined) tokens.push({ text: string, kind: 'string', at: start });
    else if (number !== undefined) tokens.push({ text: number, kind: 'number', at: start });
    else tokens.push({ text: word, kind: 'word', at: start });
    at = TOKEN.lastIndex;
  }
  return tokens;
}

class Parser {
  private index = 0;

  constructor(private readonly tokens: Token[]) {}

  parse(): PayloadFilter {
    if (this.tokens.length === 0) throw new FilterSyntaxError('the condition is empty');
    const filter = this.or(0);
    const extra = this.peek();
    if (extra) throw this.error(extra, 'the end of the condition');
    return filter;
  }

  private or(depth: number): PayloadFilter {
    const operands = [this.and(depth)];
    while (this.accept('||')) operands.push(this.and(depth));
    return operands.length === 1 ? operands[0] : { kind: 'or', operands };
  }

  private and(depth: number): PayloadFilter {
    const operands = [this.unary(depth)];
    while (this.accept('&&')) operands.push(this.unary(depth));
    return operands.length === 1 ? operands[0] : { kind: 'and', operands };
  }

  /** `depth` counts the negations and parentheses around this operand: FILTER_MAX_DEPTH of them are taken. */
  private unary(depth: number): PayloadFilter {
    if (depth > FILTER_MAX_DEPTH) {
      throw new FilterSyntaxError(`the condition nests more than ${FILTER_MAX_DEPTH} levels deep`);
    }
    if (this.accept('!')) return { kind: 'not', operand: this.unary(depth + 1) };
    if (this.accept('(')) {
      const inner = this.or(depth + 1);
      this.expect(')', '")"');
      return inner;
    }
    return this.comparison();
  }

  private comparison(): PayloadFilter {
    const path = this.path();
    const next = this.peek();
    if (next?.kind === 'symbol' && ['==', '!=', '<', '<=', '>', '>='].includes(next.text)) {
      this.index += 1;
      return { kind: 'compare', path, operator: next.text as Operator, value: this.literal() };
    }
    if (next?.kind === 'word' && next.text === 'in') {
      this.index += 1;
      this.expect('[', '"[" opening the list of values');
      const values = [this.literal()];
      while (this.accept(',')) values.push(this.literal());
      this.expect(']', '"," or "]"');
      return { kind: 'in', path, values };
    }
    return { kind: 'truthy', path };
  }

  private path(): Segment[] {
    const start = this.peek();
    if (!start || start.text !== '$') {
      throw this.error(start, 'a path starting with "$" (e.g. $.action), "!" or "("');
    }
    this.index += 1;
    const segments: Segment[] = [];
    for (;;) {
      if (this.accept('.')) {
        const name = this.next();
        if (name?.kind !== 'word') throw this.error(name, 'a field name after "."');
        segments.push(name.text);
      } else if (this.accept('[')) {
        const key = this.next();
        if (key?.kind === 'string') segments.push(JSON.parse(key.text) as string);
        else if (key?.kind === 'number' && /^\d+$/.test(key.text)) segments.push(Number(key.text));
        else throw this.error(key, 'an array index or a quoted field name inside "[ ]"');
        this.expect(']', '"]"');
      } else return segments;
    }
  }

  private literal(): Literal {
    const token = this.next();
    if (token?.kind === 'string') return JSON.parse(token.text) as string;
    if (token?.kind === 'number') return Number(token.text);
    if (token?.kind === 'word' && token.text === 'true') return true;
    if (token?.kind === 'word' && token.text === 'false') return false;
    if (token?.kind === 'word' && token.text === 'null') return null;
    throw this.error(token, 'a value: a "string", a number, true, false or null');
  }

  private peek(): Token | undefined {
    return this.tokens[this.index];
  }

  private next(): Token | undefined {
    return this.tokens[this.index++];
  }

  private accept(symbol: string): boolean {
    const token = this.peek();
    if (token?.kind !== 'symbol' || token.text !== symbol) return false;
    this.index += 1;
    return true;
  }

  private expect(symbol: string, what: string): void {
    if (!this.accept(symbol)) throw this.error(this.peek(), what);
  }

  private error(token: Token | undefined, expected: string): FilterSyntaxError {
    return new FilterSyntaxError(
      token
        ? `expected ${expected} at position ${token.at + 1}, found "${token.text}"`
        : `expected ${expected} at the end of the condition`,
    );
  }
}

/** Parses a filter; throws FilterSyntaxError saying what is wrong and where. */
export function parsePayloadFilter(source: string): PayloadFilter {
  return new Parser(tokenize(source)).parse();
}

function valueAt(payload: unknown, path: Segment[]): unknown {
  let node = payload;
  for (const segment of path) {
    if (node === null || typeof node !== 'object') return undefined;
    if (typeof segment === 'number') {
      if (!Array.isArray(node)) return undefined;
      node = node[segment];
    } else {
      if (Array.isArray(node) || !Object.hasOwn(node, segment)) return undefined;
      node = (node as Record<string, unknown>)[segment];
    }
  }
  return node;
}

function compare(left: unknown, operator: Operator, right: Literal): boolean {
  if (operator === '==') return left === right;
  if (operator === '!=') return left !== right;
  // Order only between two numbers or two strings: anything else does not match.
  const comparable =
    (typeof left === 'number' && typeof right === 'number') ||
    (typeof left === 'string' && typeof right === 'string');
  if (!comparable) return false;
  const [a, b] = [left, right] as [number | string, number | string];
  if (operator === '<') return a < b;
  if (operator === '<=') return a <= b;
  if (operator === '>') return a > b;
  return a >= b;
}

/** Whether the payload meets the filter. */
export function matchesPayload(filter: PayloadFilter, payload: unknown): boolean {
  switch (filter.kind) {
    case 'or':
      return filter.operands.some((operand) => matchesPayload(operand, payload));
    case 'and':
      return filter.operands.every((operand) => matchesPayload(operand, payload));
    case 'not':
      return !matchesPayload(filter.operand, payload);
    case 'truthy': {
      const value = valueAt(payload, filter.path);
      return value !== undefined && value !== null && value !== false && value !== 0 && value !== '';
    }
    case 'compare':
      return compare(valueAt(payload, filter.path), filter.operator, filter.value);
    case 'in': {
      const value = valueAt(payload, filter.path);
      return filter.values.some((candidate) => candidate === value);
    }
  }
}
