import { ConfigError, ConfigToken } from 'src/platform/config/config-schema';
import type { Env } from 'src/platform/config/variables';

/** Every context's configuration, read and validated once, before Nest starts. */
export class Configuration {
  private constructor(private readonly values: ReadonlyMap<ConfigToken, unknown>) {}

  /** Reads each context's variables from `env`; the first faulty one throws a ConfigError naming it. */
  static read(tokens: readonly ConfigToken[], env: Env): Configuration {
    const names = new Set<string>();
    for (const { name } of tokens.flatMap((token) => token.schema.variables)) {
      // A name two contexts declare would be read two ways: a programming error, not an operator's.
      if (names.has(name)) throw new Error(`${name} is declared by two configurations.`);
      names.add(name);
    }
    return new Configuration(new Map(tokens.map((token) => [token, token.schema.parse(env)])));
  }

  get tokens(): ConfigToken[] {
    return [...this.values.keys()];
  }

  get<T>(token: ConfigToken<T>): T {
    if (!this.values.has(token)) throw new Error(`${token.name} is not part of this configuration.`);
    return this.values.get(token) as T;
  }
}

/** Reads the configuration, or stops the process with one line naming the faulty variable. */
export function readConfigurationOrExit(
  tokens: readonly ConfigToken[],
  env: Env = process.env,
): Configuration {
  try {
    return Configuration.read(tokens, env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`Configuration error: ${error.message}\n`);
    process.exit(1);
  }
}
