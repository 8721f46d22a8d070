/** The Node.js major version the service is built and tested on (the current LTS). */
export const REQUIRED_NODE_MAJOR = 24;

/**
 * Why this Node.js cannot run the service, or null when it can. Older releases are past their end
 * of life, and the service's dependencies (NestJS 12's ES modules under Jest, Dust's client)
 * need Node 24.
 */
export function unsupportedNodeReason(version: string): string | null {
  const major = Number(/^v?(\d+)\./.exec(version)?.[1]);
  if (Number.isInteger(major) && major >= REQUIRED_NODE_MAJOR) return null;
  return (
    `Node.js ${REQUIRED_NODE_MAJOR} or newer is required; this is ${version}. ` +
    `Run through npm (\`npm start\`, \`npm run cli\`), which uses the Node ${REQUIRED_NODE_MAJOR} that \`npm ci\` installs, ` +
    `or install Node ${REQUIRED_NODE_MAJOR} LTS.`
  );
}

/** Stops the process with a clear message on a Node.js older than the one required. */
export function exitOnUnsupportedNode(): void {
  const reason = unsupportedNodeReason(process.version);
  if (reason === null) return;
  process.stderr.write(`${reason}\n`);
  process.exit(1);
}
