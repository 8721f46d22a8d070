// @ts-check
/**
 * Lint gate (docs/architecture.md, the dependency rules): no import cycle between the files of src/, and none between
 * contexts. dependency-cruiser reads the imports (type-only ones too: a type is a dependency) and
 * finds the file cycles. A context cycle needs no file cycle (a file of agents imports one of
 * conversations, another file of conversations imports one of agents), so each context
 * (src/modules/<ctx>) is then collapsed into one node, every other file staying its own, and any
 * strongly connected group holding a context is reported: a context that reaches itself again
 * through another context, the composition or the platform.
 */
import { cruise } from 'dependency-cruiser';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { join } from 'node:path';

const CONTEXT = /^src\/modules\/([^/]+)\//;

/**
 * @typedef {{ files: string[] }} FileCycle  a cycle of files, the first repeated at the end
 * @typedef {{ group: string[], nodes: string[], imports: [string, string][] }} ContextCycle  the
 *   contexts (and files) that all reach each other, and the shortest cycle among them from the
 *   first context (repeated at the end), with one import per step
 */

/**
 * The import cycles of the sources under `projectRoot` (its `src/`, resolved with its tsconfig.json).
 * @param {string} projectRoot
 * @returns {Promise<{ fileCycles: FileCycle[], contextCycles: ContextCycle[] }>}
 */
async function findImportCycles(projectRoot) {
  const tsConfig = join(projectRoot, 'tsconfig.json');
  const { output } = await cruise(
    ['src'],
    {
      baseDir: projectRoot,
      includeOnly: '^src/',
      exclude: { path: '\\.spec\\.ts$' },
      tsPreCompilationDeps: true,
      tsConfig: { fileName: tsConfig },
      validate: true,
      ruleSet: {
        forbidden: [{ name: 'no-file-cycle', severity: 'error', from: {}, to: { circular: true } }],
      },
    },
    undefined,
    { tsConfig: extractTSConfig(tsConfig) },
  );
  if (typeof output === 'string') throw new Error('dependency-cruiser answered text instead of a result');
  return {
    fileCycles: fileCyclesOf(output.summary.violations),
    contextCycles: contextCyclesOf(output.modules),
  };
}

/**
 * dependency-cruiser reports a cycle once per import in it: keep each cycle once.
 * @param {import('dependency-cruiser').IViolation[]} violations
 * @returns {FileCycle[]}
 */
function fileCyclesOf(violations) {
  const cycles = new Map();
  for (const violation of violations) {
    if (!violation.cycle) continue;
    const files = [violation.from, ...violation.cycle.map((step) => step.name)];
    files.pop(); // the cycle ends where it starts
    const first = files.indexOf([...files].sort()[0]);
    const rotated = [...files.slice(first), ...files.slice(0, first)];
    cycles.set(rotated.join('\n'), { files: [...rotated, rotated[0]] });
  }
  return [...cycles.values()];
}

/** @param {string} file */
function nodeOf(file) {
  const context = CONTEXT.exec(file);
  return context ? `src/modules/${context[1]}` : file;
}

/**
 * @param {import('dependency-cruiser').IModule[]} modules
 * @returns {ContextCycle[]}
 */
function contextCyclesOf(modules) {
  /** @type {Map<string, Map<string, [string, string]>>} node → node it imports → one import doing it */
  const graph = new Map();
  for (const module of modules) {
    const from = nodeOf(module.source);
    if (!graph.has(from)) graph.set(from, new Map());
    for (const dependency of module.dependencies) {
      const to = nodeOf(dependency.resolved);
      if (to === from || !dependency.resolved.startsWith('src/')) continue;
      if (!graph.get(from)?.has(to)) graph.get(from)?.set(to, [module.source, dependency.resolved]);
    }
  }
  return stronglyConnected(graph)
    .filter((group) => group.length > 1 && group.some((node) => CONTEXT.test(`${node}/`)))
    .map((group) => cycleWithin(graph, new Set(group)));
}

/**
 * Tarjan's strongly connected components.
 * @param {Map<string, Map<string, unknown>>} graph
 * @returns {string[][]}
 */
function stronglyConnected(graph) {
  /** @type {Map<string, number>} */ const index = new Map();
  /** @type {Map<string, number>} */ const low = new Map();
  /** @type {string[]} */ const stack = [];
  const onStack = new Set();
  /** @type {string[][]} */ const groups = [];
  /** @param {string} node */
  const visit = (node) => {
    index.set(node, index.size);
    low.set(node, index.get(node) ?? 0);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(node) === index.get(node)) {
      const group = [];
      let member;
      do {
        member = /** @type {string} */ (stack.pop());
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      groups.push(group.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return groups;
}

/**
 * The shortest way from the group's first context back to itself, inside the group.
 * @param {Map<string, Map<string, [string, string]>>} graph
 * @param {Set<string>} group
 * @returns {ContextCycle}
 */
function cycleWithin(graph, group) {
  const start = [...group].find((node) => CONTEXT.test(`${node}/`)) ?? [...group][0];
  /** @type {Map<string, string | undefined>} */ const cameFrom = new Map([[start, undefined]]);
  /** @type {string | undefined} */ let last;
  const queue = [start];
  while (last === undefined && queue.length > 0) {
    const node = /** @type {string} */ (queue.shift());
    for (const next of graph.get(node)?.keys() ?? []) {
      if (next === start) {
        last = node;
        break;
      }
      if (!group.has(next) || cameFrom.has(next)) continue;
      cameFrom.set(next, node);
      queue.push(next);
    }
  }
  /** @type {string[]} */ const nodes = [start];
  for (let node = last; node !== undefined; node = cameFrom.get(node)) nodes.unshift(node);
  const imports = nodes.slice(1).map((node, step) => {
    const edge = graph.get(nodes[step])?.get(node);
    if (!edge) throw new Error(`No import from ${nodes[step]} to ${node}`);
    return edge;
  });
  return { group: [...group], nodes, imports };
}

/** Checks the project of the working directory: prints each cycle and fails when there is one. */
async function main() {
  const { fileCycles, contextCycles } = await findImportCycles(process.cwd());
  for (const { files } of fileCycles) console.error(`File import cycle: ${files.join(' → ')}`);
  for (const { group, nodes, imports } of contextCycles) {
    console.error(`Context import cycle among ${group.join(', ')}; for one: ${nodes.join(' → ')}`);
    for (const [from, to] of imports) console.error(`  ${from} imports ${to}`);
  }
  if (fileCycles.length + contextCycles.length > 0) {
    console.error(
      'Break each cycle: a port bound in src/composition, or an event (docs/architecture.md, the dependency rules).',
    );
    process.exitCode = 1;
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
