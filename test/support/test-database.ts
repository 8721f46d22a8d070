/** What the global setup hands to the test workers, through the environment. */
export const TEST_ENV = {
  adminUrl: 'WA_TEST_ADMIN_DATABASE_URL',
  templateDatabase: 'WA_TEST_TEMPLATE_DATABASE',
  runId: 'WA_TEST_RUN_ID',
  /** The service's build (the one Jest runs), which the process specs run as separate processes. */
  serviceBuild: 'WA_TEST_SERVICE_BUILD',
  /** A file holding the OpenAPI document, for specs that declare one test per operation. */
  openApiDocument: 'WA_TEST_OPENAPI_DOCUMENT',
} as const;

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${encodeURIComponent(database)}`;
  return parsed.toString();
}

export function databaseName(url: string): string {
  return decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
}
