/**
 * One 200 MiB multipart upload to local storage, through the signed upload URL: the service must
 * stream it (its peak RSS may grow by less than 64 MiB) at 100 MiB/s or more.
 */
const { randomBytes } = require('node:crypto');
const { writeFileSync } = require('node:fs');
const { request } = require('node:http');
const { bootstrap, procStatus } = require('../harness');

const MIB = 1024 * 1024;
const SIZE_MIB = 200;
const TARGET_MIB_PER_S = 100;
const TARGET_RSS_MIB = 64;

/** Resets the peak RSS to the current one (Linux ≥ 4.0); false where it is not allowed. */
function resetPeak(pid) {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** Streams `SIZE_MIB` MiB as the part `file` of a multipart body, from one reused 1 MiB chunk. */
function upload(url) {
  const boundary = `bench${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.txt"\r\n` +
      'Content-Type: text/plain\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  // Text, as the declared text/plain must be (the service checks it is UTF-8).
  const chunk = Buffer.from(randomBytes(MIB).toString('base64').slice(0, MIB));
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      headers: {
        'Content-Type': `multipart/form-data; boundary=${boundary}`,
        'Content-Length': head.length + SIZE_MIB * MIB + tail.length,
      },
    });
    req.once('error', reject);
    req.once('response', (res) => {
      let body = '';
      res.on('data', (data) => (body += data));
      res.on('end', () => resolve({ status: res.statusCode, body }));
    });
    let sent = 0;
    const write = () => {
      while (sent < SIZE_MIB) {
        sent += 1;
        if (!req.write(chunk)) return req.once('drain', write);
      }
      req.end(tail);
    };
    req.write(head);
    write();
  });
}

module.exports = {
  name: 'upload',
  /** The policy must let a 200 MiB document in. */
  env: { FILE_MAX_MB_DOCUMENT: String(SIZE_MIB) },
  async run({ service }) {
    const { workspace, apiKey } = await bootstrap(service, 'Upload bench');
    const created = await fetch(`${service.baseUrl}/api/w/${workspace.sId}/files`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey.secret}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        contentType: 'text/plain',
        fileName: 'bench.txt',
        fileSize: SIZE_MIB * MIB,
        useCase: 'conversation',
      }),
    }).then((res) => res.json());
    const uploadUrl = new URL(created.file.uploadUrl);
    const target = `${service.baseUrl}${uploadUrl.pathname}${uploadUrl.search}`;

    const before = procStatus(service.pid, 'VmRSS');
    const peakReset = resetPeak(service.pid);
    let sampled = before;
    const sampler = setInterval(() => (sampled = Math.max(sampled, procStatus(service.pid, 'VmRSS'))), 10);
    const started = process.hrtime.bigint();
    const { status, body } = await upload(target);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    clearInterval(sampler);
    const peak = peakReset ? procStatus(service.pid, 'VmHWM') : sampled;

    const ready = status === 200 && JSON.parse(body).file.status === 'ready';
    const rate = SIZE_MIB / seconds;
    const growth = (peak - before) / MIB;
    const failed = !ready || rate < TARGET_MIB_PER_S || growth >= TARGET_RSS_MIB;
    return [
      {
        scenario: `upload ${SIZE_MIB} MiB (local storage)`,
        rps: '-',
        p50: Math.round(seconds * 1000),
        p99: '-',
        errors: ready ? 0 : 1,
        note:
          `${rate.toFixed(0)} MiB/s (target ≥ ${TARGET_MIB_PER_S}), peak RSS +${growth.toFixed(1)} MiB ` +
          `(target < ${TARGET_RSS_MIB})${ready ? '' : `; answered ${status}`}${failed ? ' — MISSED' : ''}`,
        failed,
      },
    ];
  },
};
