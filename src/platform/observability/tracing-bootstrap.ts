import { startTracingFromEnvironment, type Tracing } from 'src/platform/observability/tracing';
import { exitOnStartFailure } from 'src/platform/process/start-failure';

function startOrExit(): Tracing | null {
  try {
    return startTracingFromEnvironment(process.env);
  } catch (error) {
    exitOnStartFailure(error);
  }
}

/**
 * Imported by main.ts before anything else of the service: the HTTP instrumentation must patch
 * http before it is first required. Null when tracing is off.
 */
export const tracing = startOrExit();
