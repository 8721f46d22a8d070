import { describe, expect, it } from '@jest/globals';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';

/**
 * The SDK's attribute rules, which spans must keep with `@opentelemetry/core` patched
 * (`patches/`: no WeakSet allocated to check a string, number or boolean).
 */
describe('span attributes', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({
    spanProcessors: [new SimpleSpanProcessor({ exporter })],
    spanLimits: { attributeValueLengthLimit: 8, attributeCountLimit: 6 },
  });
  const tracer = provider.getTracer('span-attributes-spec');

  const recorded = (name: string) => {
    const span = exporter.getFinishedSpans().find((s) => s.name === name);
    if (!span) throw new Error(`no span ${name}`);
    return span;
  };

  it('keeps scalars, arrays and maps, truncates long strings, drops undefined and invalid values', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    tracer
      .startSpan('at start', {
        attributes: {
          'db.query.text': 'SELECT c.id FROM conversations c',
          'server.port': 5432,
          ok: true,
          'db.namespace': undefined,
          tags: ['a', 'b'],
          nested: { k: 'value-too-long', n: 2 },
          cyclic: cyclic,
        },
      })
      .end();
    const span = recorded('at start');
    expect(span.attributes).toEqual({
      'db.query.text': 'SELECT c',
      'server.port': 5432,
      ok: true,
      tags: ['a', 'b'],
      nested: { k: 'value-to', n: 2 },
    });
    expect(span.droppedAttributesCount).toBe(1);
  });

  it('applies the same rules to attributes set later, and the count limit', () => {
    const span = tracer.startSpan('set later', { attributes: { a: 'x' } });
    span.setAttribute('http.response.status_code', 200);
    span.setAttribute('http.route', '/api/w/:wId/assistant/conversations/:cId');
    span.setAttribute('when', new Date());
    span.setAttributes({ b: 1, c: 2, d: 3, e: 4 });
    span.end();
    const ended = recorded('set later');
    expect(ended.attributes).toEqual({
      a: 'x',
      'http.response.status_code': 200,
      'http.route': '/api/w/:',
      b: 1,
      c: 2,
      d: 3,
    });
    expect(ended.droppedAttributesCount).toBe(1);
  });
});
