/** Stops a start that cannot go on, its reason on stderr: the reason names what to fix, a stack would not. */
export function exitOnStartFailure(error: unknown): never {
  process.stderr.write(`Failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
