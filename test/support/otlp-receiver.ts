import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A span as an OTLP/JSON export carries it, with its attributes flattened. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  /** OTLP's status code: 0 unset, 1 ok, 2 error. */
  status?: { code?: number };
  attributes: Record<string, unknown>;
}

interface OtlpAttribute {
  key: string;
  value: Record<string, unknown>;
}

interface OtlpExport {
  resourceSpans?: {
    scopeSpans?: { spans?: (Omit<ReceivedSpan, 'attributes'> & { attributes?: OtlpAttribute[] })[] }[];
  }[];
}

/**
 * An OTLP/HTTP collector of traces (JSON encoding) that keeps every span it receives in memory; or,
 * while told to refuse, answers every export with that status and keeps nothing.
 */
export async function startOtlpReceiver(): Promise<{
  url: string;
  spans: ReceivedSpan[];
  refuseWith(status: number | null): void;
  /** How many exports it refused so far. */
  refused(): number;
  stop(): Promise<void>;
}> {
  const spans: ReceivedSpan[] = [];
  let refusal: number | null = null;
  let refusedExports = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (refusal !== null) {
        refusedExports += 1;
        res.statusCode = refusal;
        res.end();
        return;
      }
      if (req.url === '/v1/traces') {
        const body = JSON.parse(Buffer.concat(chunks).toString()) as OtlpExport;
        for (const resource of body.resourceSpans ?? [])
          for (const scope of resource.scopeSpans ?? [])
            for (const span of scope.spans ?? []) {
              spans.push({
                ...span,
                attributes: Object.fromEntries(
                  (span.attributes ?? []).map(({ key, value }) => [key, Object.values(value)[0]]),
                ),
              });
            }
      }
      res.setHeader('Content-Type', 'application/json');
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    refuseWith: (status) => (refusal = status),
    refused: () => refusedExports,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
