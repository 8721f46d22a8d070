/** GET /healthz of the service against a bare node:http server answering the same JSON. */
const { createServer } = require('node:http');
const { freePort, load } = require('../harness');

module.exports = {
  name: 'healthz',
  async run({ service }) {
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
    try {
      const reference = await load({ url: `http://127.0.0.1:${port}/healthz` });
      const measured = await load({ url: `${service.baseUrl}/healthz` });
      const ratio = measured.rps / reference.rps;
      return [
        { scenario: 'healthz (bare node:http)', ...reference, note: 'reference' },
        {
          scenario: 'healthz (service)',
          ...measured,
          note: `${(ratio * 100).toFixed(0)}% of the reference`,
        },
      ];
    } finally {
      await new Promise((resolve) => bare.close(resolve));
    }
  },
};
