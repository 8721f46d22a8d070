/**
 * GET /healthz of the service against a bare node:http server answering the same JSON: the fixed
 * cost of a route. Target: the service reaches at least 35 % of the bare server's requests per second.
 */
const { createServer } = require('node:http');
const { fetchText, freePort, load } = require('../harness');

const TARGET_RATIO = 0.35;

/** The bare server, listening; its URL of /healthz and how to stop it. */
async function startBare() {
  const port = await freePort();
  const bare = createServer((_req, res) => {
    const body = JSON.stringify({ status: 'ok' });
    res.writeHead(200, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
    });
    res.end(body);
  });
  await new Promise((resolve) => bare.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}/healthz`,
    stop: () => new Promise((resolve) => bare.close(resolve)),
  };
}

module.exports = {
  name: 'healthz',
  /** What each side answers (the test suite checks they are the same bytes). */
  async bodies({ service }) {
    const bare = await startBare();
    try {
      return { reference: await fetchText(bare.url), service: await fetchText(`${service.baseUrl}/healthz`) };
    } finally {
      await bare.stop();
    }
  },
  async run({ service }) {
    const bare = await startBare();
    try {
      const reference = await load({ url: bare.url });
      const measured = await load({ url: `${service.baseUrl}/healthz` });
      const ratio = measured.rps / reference.rps;
      const failed = ratio < TARGET_RATIO;
      return [
        { scenario: 'healthz (bare node:http)', ...reference, note: 'reference' },
        {
          scenario: 'healthz (service)',
          ...measured,
          note: `${(ratio * 100).toFixed(0)}% of the reference (target ≥ ${TARGET_RATIO * 100}%)${failed ? ' — MISSED' : ''}`,
          failed,
        },
      ];
    } finally {
      await bare.stop();
    }
  },
};
