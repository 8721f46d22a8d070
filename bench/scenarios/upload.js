/**
 * One 200 MiB multipart upload to local storage, through the signed upload URL: the service must
 * stream it (its peak RSS may grow by less than 64 MiB) at 100 MiB/s or more.
 */
const { randomBytes } = require('node:crypto');
const { bootstrap, multipartUpload, procStatus, resetPeak } = require('../harness');

const MIB = 1024 * 1024;
const SIZE_MIB = 200;
const TARGET_MIB_PER_S = 100;
const TARGET_RSS_MIB = 64;

/** `SIZE_MIB` MiB of text (the service checks a declared text/plain is UTF-8), one reused 1 MiB chunk. */
function* text() {
  const chunk = Buffer.from(randomBytes(MIB).toString('base64').slice(0, MIB));
  for (let sent = 0; sent < SIZE_MIB; sent += 1) yield chunk;
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
    const { status, body } = await multipartUpload(target, {
      contentType: 'text/plain',
      fileName: 'bench.txt',
      size: SIZE_MIB * MIB,
      chunks: text(),
    });
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
