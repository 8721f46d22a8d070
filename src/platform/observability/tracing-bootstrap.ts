import { startTracingFromEnvironment } from 'src/platform/observability/tracing';

/**
 * Imported by main.ts before anything else of the service: the HTTP instrumentation must patch
 * http before it is first required. Null when tracing is off.
 */
export const tracing = startTracingFromEnvironment(process.env);
