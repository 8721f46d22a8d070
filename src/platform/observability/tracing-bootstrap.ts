import { startTracingFromEnvironment } from 'src/platform/observability/tracing';

/**
 * Imported by main.ts before anything else of the service: the instrumentations must patch http
 * and pg before they are first required. Null when tracing is off.
 */
export const tracing = startTracingFromEnvironment(process.env);
