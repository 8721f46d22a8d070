import { context, SpanStatusCode, trace, type Context } from '@opentelemetry/api';

const tracer = trace.getTracer('workspace-agent-api');

/** What a span records: workspace, agent, model, tool server, outcome… (bounded or not: spans are per call). */
export type SpanAttributes = Record<string, string | number | boolean | undefined>;

/** What the work inside a span may add once it knows it (an outcome, tokens). */
export interface OpenSpan {
  set(attributes: SpanAttributes): void;
}

/**
 * Runs `work` inside a span of its own, the active span's child; a throw marks it failed. A no-op
 * span when tracing is off (no SDK started), at the cost of a function call.
 */
export function inSpan<T>(
  name: string,
  attributes: SpanAttributes,
  work: (span: OpenSpan) => Promise<T>,
): Promise<T> {
  return tracer.startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await work({ set: (more) => span.setAttributes(more) });
    } catch (error) {
      span.setStatus({
        code: SpanStatusCode.ERROR,
        message: error instanceof Error ? error.message : String(error),
      });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** A span opened by hand, for work that is not one function call (a stream consumed chunk by chunk). */
export interface StartedSpan extends OpenSpan {
  /** Ends it; with an error, marked failed. */
  end(error?: unknown): void;
}

/** A span, child of the active one, that the caller ends. */
export function startSpan(name: string, attributes: SpanAttributes): StartedSpan {
  const span = tracer.startSpan(name, { attributes });
  return {
    set: (more) => span.setAttributes(more),
    end: (error) => {
      if (error !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: messageOf(error) });
      span.end();
    },
  };
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The trace context work runs in now: to carry to work that goes on after it (a run after its POST). */
export type TraceContext = Context;

export function currentTraceContext(): TraceContext {
  return context.active();
}

/** Runs `work` in a context captured earlier, so its spans join that trace. */
export function inTraceContext<T>(carried: TraceContext, work: () => T): T {
  return context.with(carried, work);
}
