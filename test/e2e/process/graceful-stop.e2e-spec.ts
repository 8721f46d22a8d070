import { describe, expect, it } from '@jest/globals';
import { rm } from 'node:fs/promises';
import { startService, tempDataDir } from 'test/support/service-process';
import { until } from 'test/support/until';

const status = (url: string) =>
  fetch(url).then(
    async (res) => ({ status: res.status, body: await res.json() }),
    () => ({ status: 0, body: null }),
  );

/**
 * A supervisor's SIGTERM: the process says it is not ready at once, so a load balancer stops
 * sending it requests, and goes on serving those that still come for SHUTDOWN_GRACE_MS.
 */
describe('a stop with a grace period', () => {
  it('answers /readyz 503 at once, serves on through the grace, then exits cleanly', async () => {
    const dataDir = await tempDataDir();
    try {
      const service = await startService({ DATA_DIR: dataDir, SHUTDOWN_GRACE_MS: '5000' });
      expect((await status(`${service.baseUrl}/readyz`)).status).toBe(200);

      const exited = service.stop('SIGTERM');
      const unready = await until(
        () => status(`${service.baseUrl}/readyz`),
        (answer) => answer.status !== 200,
      );
      expect(unready).toEqual({
        status: 503,
        body: { error: { type: 'service_unavailable', message: 'Not ready: the process is stopping.' } },
      });
      // Still serving: liveness holds and the API answers.
      expect((await status(`${service.baseUrl}/healthz`)).status).toBe(200);
      expect((await status(`${service.baseUrl}/api/openapi.json`)).status).toBe(200);

      expect(await exited).toBe(0);
      // The access lines of the 503s say what they are; nothing else went wrong.
      const errors = service
        .output()
        .split('\n')
        .filter((line) => /"level":(50|60)/.test(line) && !line.includes('"route":"/readyz"'));
      expect(errors).toEqual([]);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
