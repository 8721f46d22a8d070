/** The part of swagger-client (no types of its own) that Swagger UI's "Try it out" goes through. */
declare module 'swagger-client' {
  export interface ExecuteOptions {
    operationId: string;
    parameters?: Record<string, unknown>;
    requestBody?: unknown;
    /** What "Authorize" holds, by security scheme name. */
    securities?: { authorized: Record<string, { value: string }> };
  }

  export interface ExecuteResponse {
    url: string;
    status: number;
    body: unknown;
    headers: Record<string, string>;
  }

  export interface SwaggerClientInstance {
    spec: Record<string, unknown>;
    execute(options: ExecuteOptions): Promise<ExecuteResponse>;
  }

  export default function SwaggerClient(options: { url: string }): Promise<SwaggerClientInstance>;
}
