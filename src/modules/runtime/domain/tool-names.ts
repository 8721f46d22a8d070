/** What providers accept as a function name. */
const NAME_MAX = 64;
const NOT_ALLOWED = /[^A-Za-z0-9_-]+/g;

/**
 * The function names a model sees for `<server>__<tool>` pairs, in order: characters outside
 * `[A-Za-z0-9_-]` become `_`, the name is cut to 64 characters, and a name already taken gets a
 * numbered suffix, so every tool of a run has its own name.
 */
export function functionNames(tools: readonly { server: string; tool: string }[]): string[] {
  const taken = new Set<string>();
  return tools.map(({ server, tool }) => {
    const base = `${server}__${tool}`.replace(NOT_ALLOWED, '_').slice(0, NAME_MAX) || 'tool';
    let name = base;
    for (let n = 2; taken.has(name); n++) {
      const suffix = `_${n}`;
      name = `${base.slice(0, NAME_MAX - suffix.length)}${suffix}`;
    }
    taken.add(name);
    return name;
  });
}
