import { z } from 'zod';
import { Env, Variable, VariableDoc } from 'src/platform/config/variables';

/** A configuration value the process cannot start with; the message is one line naming the variable. */
export class ConfigError extends Error {}

/** A context's variables, grouped as the code reads them: each leaf is a variable, each branch a group. */
export interface ConfigShape {
  readonly [field: string]: Variable<unknown> | ConfigShape;
}

/** The values a shape reads into, typed from its variables. */
export type ValuesOf<S extends ConfigShape> = {
  [K in keyof S]: S[K] extends Variable<unknown>
    ? z.output<S[K]['schema']>
    : S[K] extends ConfigShape
      ? ValuesOf<S[K]>
      : never;
};

function variablesOf(shape: ConfigShape): Variable<unknown>[] {
  return Object.values(shape).flatMap((node) => (node instanceof Variable ? [node] : variablesOf(node)));
}

function objectOf(shape: ConfigShape): z.ZodType {
  return z.object(
    Object.fromEntries(
      Object.entries(shape).map(([field, node]) => [
        field,
        node instanceof Variable ? node.schema : objectOf(node),
      ]),
    ),
  );
}

const isSet = (raw: string | undefined) => raw !== undefined && raw.trim() !== '';

/**
 * The raw text of each variable, placed where the shape reads it. A variable set without the one
 * it goes with is refused here, before any value is checked, or left unread, as it declares.
 */
function rawValues(shape: ConfigShape, env: Env, ctx: z.RefinementCtx): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(shape).map(([field, node]): [string, unknown] => {
      if (!(node instanceof Variable)) return [field, rawValues(node, env, ctx)];
      const raw = env[node.doc.name];
      const { companion } = node;
      if (companion === null || !isSet(raw) || isSet(env[companion.name])) return [field, raw];
      if (companion.alone === 'refuse') {
        ctx.addIssue({
          code: 'custom',
          message: `${node.doc.name} is set but ${companion.name} is not: set both, or neither.`,
        });
      }
      return [field, undefined];
    }),
  );
}

/**
 * A context's configuration: its variables (for the docs) and the zod schema that reads them from
 * the environment into the typed object the context is given.
 */
export class ConfigSchema<T> {
  private constructor(
    readonly variables: readonly VariableDoc[],
    readonly schema: z.ZodType<T, Env>,
  ) {}

  static of<S extends ConfigShape>(shape: S): ConfigSchema<ValuesOf<S>> {
    const schema = z.preprocess(
      (env, ctx) => rawValues(shape, env as Env, ctx),
      objectOf(shape),
    ) as unknown as z.ZodType<ValuesOf<S>, Env>;
    return new ConfigSchema(
      variablesOf(shape).map((variable) => variable.doc),
      schema,
    );
  }

  /**
   * The rules that span variables, and the shape the context reads. `refuse` stops the start with
   * its message (a sentence that starts with the variable's name).
   */
  then<U>(shape: (values: T, refuse: (message: string) => never) => U): ConfigSchema<U> {
    const schema = this.schema.transform((values, ctx) =>
      shape(values, (message) => {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }),
    );
    return new ConfigSchema<U>(this.variables, schema);
  }

  /** The values, frozen; the first faulty variable throws a ConfigError naming it. */
  parse(env: Env): T {
    const result = this.schema.safeParse(env);
    if (!result.success) throw new ConfigError(result.error.issues[0].message);
    return Object.freeze(result.data);
  }
}

/** An abstract class standing for a context's configuration: its injection token and its type. */
export type ConfigToken<T = unknown> = (abstract new () => T) & {
  readonly schema: ConfigSchema<T>;
  /** The values `env` configures, for a spec that builds the object its subject is given. */
  from(env: Env): T;
};

/**
 * The base of a context's configuration class (the abstract class is its
 * own token): `abstract class FilesConfig extends configToken(schema) {}` has the schema's type.
 */
export function configToken<T extends object>(schema: ConfigSchema<T>): ConfigToken<Readonly<T>> {
  abstract class Configured {
    static readonly schema = schema;
    static from(env: Env): Readonly<T> {
      return schema.parse(env);
    }
  }
  return Configured as unknown as ConfigToken<Readonly<T>>;
}
