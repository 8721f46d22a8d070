import { z } from 'zod';

/** The process environment, or the part of it a test passes. */
export type Env = Readonly<Record<string, string | undefined>>;

/** What docs/configuration.md shows of a variable. */
export interface VariableDoc {
  readonly name: string;
  /** Markdown of the default column. */
  readonly shownDefault: string;
  /** One line. */
  readonly description: string;
}

/** What every variable declares besides its rule. */
export interface VariableOptions {
  description: string;
  /** Markdown for the default column, when the default is not a plain value (derived, generated…). */
  shownDefault?: string;
}

/** A variable whose value only means something beside another one (a bucket's region, an endpoint's key). */
interface Companion {
  name: string;
  /** `refuse`: set without it, the process does not start; `ignore`: set without it, it is not even read. */
  alone: 'refuse' | 'ignore';
}

/** Why a raw value is refused, completing the sentence "<NAME> …". */
class Refusal {
  constructor(readonly reason: string) {}
}

/**
 * One environment variable, declared once: its name, default, rule and meaning. `schema` reads the
 * raw text (blank counts as unset) into the value the context uses.
 */
export class Variable<T> {
  constructor(
    readonly doc: VariableDoc,
    readonly schema: z.ZodType<T, string | undefined>,
    readonly companion: Companion | null = null,
  ) {}

  /** The same variable, its value turned into the unit or shape the code uses (MiB into bytes…). */
  map<U>(convert: (value: T) => U): Variable<U> {
    return new Variable(this.doc, this.schema.transform(convert), this.companion);
  }

  /** Set while `other` is not, this variable stops the start. */
  requires(other: string): Variable<T> {
    return new Variable(this.doc, this.schema, { name: other, alone: 'refuse' });
  }

  /** Read only when `other` is set; without it, its value is not looked at. */
  onlyWith(other: string): Variable<T> {
    return new Variable(this.doc, this.schema, { name: other, alone: 'ignore' });
  }
}

/** What a variable's value can be read as. */
type Value = string | number | boolean | string[] | null;

function shown(value: Value): string {
  if (value === null) return '_(unset)_';
  if (Array.isArray(value)) return value.length === 0 ? '_(none)_' : `\`${value.join(',')}\``;
  return `\`${String(value)}\``;
}

function variable<T extends Value>(
  name: string,
  options: VariableOptions,
  fallback: T,
  parse: (raw: string) => T | Refusal,
): Variable<T> {
  const schema = z
    .string()
    .optional()
    .transform((value, ctx): T => {
      const raw = value?.trim();
      if (raw === undefined || raw === '') return fallback;
      const parsed = parse(raw);
      if (!(parsed instanceof Refusal)) return parsed;
      ctx.addIssue({ code: 'custom', message: `${name} ${parsed.reason}` });
      return z.NEVER;
    });
  const doc = {
    name,
    shownDefault: options.shownDefault ?? shown(fallback),
    description: options.description,
  };
  return new Variable(doc, schema);
}

const DIGITS = /^\d+$/;

/** A whole number from `min` to `max`; a null default lets the context derive one. */
export function integer<D extends number | null>(
  name: string,
  options: VariableOptions & { default: D; min: number; max: number },
): Variable<number | D> {
  const { min, max } = options;
  return variable<number | D>(name, options, options.default, (raw) => {
    const value = Number(raw);
    return DIGITS.test(raw) && value >= min && value <= max
      ? value
      : new Refusal(`must be an integer between ${min} and ${max}, got "${raw}".`);
  });
}

const MIN_DURATION_MS = 10;
const MAX_DURATION_MS = 86_400_000;

/** Milliseconds, from 10 ms to a day. */
export function duration(name: string, options: VariableOptions & { default: number }): Variable<number> {
  return variable(name, options, options.default, (raw) => {
    const value = Number(raw);
    return DIGITS.test(raw) && value >= MIN_DURATION_MS && value <= MAX_DURATION_MS
      ? value
      : new Refusal(
          `must be a number of milliseconds between ${MIN_DURATION_MS} and ${MAX_DURATION_MS}, got "${raw}".`,
        );
  });
}

/** `true`/`1` or `false`/`0`, in any case; a null default lets the context derive one. */
export function boolean<D extends boolean | null>(
  name: string,
  options: VariableOptions & { default: D },
): Variable<boolean | D> {
  return variable<boolean | D>(name, options, options.default, (raw) => {
    const value = raw.toLowerCase();
    if (value === 'true' || value === '1') return true;
    if (value === 'false' || value === '0') return false;
    return new Refusal(`must be true or false, got "${value}".`);
  });
}

/** Never echo a password from a connection string into logs. */
function redact(raw: string): string {
  return raw.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
}

/** An absolute URL with one of `protocols` (`http:`…), kept as written; unset is null. */
export function url(
  name: string,
  options: VariableOptions & { protocols: string[] },
): Variable<string | null> {
  const allowed = options.protocols.join(' or ');
  return variable<string | null>(name, options, null, (raw) => {
    let parsed: URL;
    try {
      parsed = new URL(raw);
    } catch {
      return new Refusal(`must be a URL (${allowed}), got "${redact(raw)}".`);
    }
    return options.protocols.includes(parsed.protocol)
      ? raw
      : new Refusal(`must use ${allowed}, got "${parsed.protocol}".`);
  });
}

/** Free text, trimmed; `refuses` says what is wrong with a value, completing "<NAME> …". */
export function text<D extends string | null = null>(
  name: string,
  options: VariableOptions & { default?: D; refuses?: (raw: string) => string | null },
): Variable<string | D> {
  return variable<string | D>(name, options, options.default ?? (null as D), (raw) => {
    const reason = options.refuses?.(raw) ?? null;
    return reason === null ? raw : new Refusal(reason);
  });
}

/** One of `values`, in any case. */
export function oneOf<V extends string>(
  name: string,
  values: readonly V[],
  options: VariableOptions & { default: NoInfer<V> },
): Variable<V> {
  return variable(name, options, options.default, (raw) => {
    const value = raw.toLowerCase();
    return (values as readonly string[]).includes(value)
      ? (value as V)
      : new Refusal(`must be one of ${values.join(', ')}, got "${value}".`);
  });
}

/** Comma-separated items, trimmed, empty ones dropped; unset is none. */
export function list(name: string, options: VariableOptions): Variable<string[]> {
  return variable<string[]>(name, options, [], (raw) =>
    raw
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== ''),
  );
}
