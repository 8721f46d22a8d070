import { startTracingFromEnvironment, type Tracing } from 'src/platform/observability/tracing';

function startOrExit(): Tracing | null {
  try {
    return startTracingFromEnvironment(process.env);
  } catch (error) {
    process.stderr.write(`Failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}

/**
 * Imported by main.ts before anything else of the service: the HTTP instrumentation must patch
 * http before it is first required. Null when tracing is off.
 */
export const tracing = startOrExit();
