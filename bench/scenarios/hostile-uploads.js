/**
 * Hostile uploads, one after another (a DOCX zip bomb, a PDF of 20,000 pages, a genuine DOCX whose
 * 2 MiB of XML keep a parser busy, 200 MiB of text), each while `/healthz` is asked one request
 * after another: the service must keep answering (p99 < 100 ms, no failure) and its peak RSS grow
 * by less than 256 MiB, the parsers' memory being their own processes'. `/healthz` is first
 * measured alone, so the machine's own latency shows beside the uploads'.
 */
const { randomBytes } = require('node:crypto');
const { readdirSync, readFileSync } = require('node:fs');
const { bootstrap, multipartUpload, procStatus, resetPeak } = require('../harness');
const { docxOfSize, pdfOf } = require('../hostile-documents');

const MIB = 1024 * 1024;
const TEXT_MIB = 200;
const TARGET_P99_MS = 100;
const TARGET_RSS_MIB = 256;
/** How long `/healthz` is measured alone first. */
const QUIET_MS = 10_000;
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** `TEXT_MIB` MiB of text, one reused 1 MiB chunk. */
function* text() {
  const chunk = Buffer.from(randomBytes(MIB).toString('base64').slice(0, MIB));
  for (let sent = 0; sent < TEXT_MIB; sent += 1) yield chunk;
}

/** Summed RSS of the service's document parser processes (its children running the parser script). */
function parsersRss(servicePid) {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== servicePid) continue;
      if (!readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('document-parser.process.js')) continue;
      total += procStatus(Number(entry), 'VmRSS');
    } catch {
      // The process ended while it was read.
    }
  }
  return total;
}

/** `/healthz` one request after another (a held event loop shows as latency) until `stop()`. */
function watchHealth(baseUrl) {
  const latencies = [];
  let failures = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      const ok = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(5_000) }).then(
        async (res) => (await res.arrayBuffer(), res.status === 200),
        () => false,
      );
      if (ok) latencies.push(performance.now() - started);
      else failures += 1;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  return async () => {
    running = false;
    await loop;
    const sorted = latencies.sort((a, b) => a - b);
    const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
    return { count: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? 0, failures };
  };
}

module.exports = {
  name: 'hostile-uploads',
  /** Room for the 200 MiB text; every parsing limit at its default. */
  env: { FILE_MAX_MB_DOCUMENT: String(TEXT_MIB) },
  async run({ service }) {
    const { workspace, apiKey } = await bootstrap(service, 'Hostile uploads bench');
    const uploads = [
      {
        label: 'zip bomb',
        contentType: DOCX,
        content: [docxOfSize(50 * MIB)],
        expect: { status: 400, says: 'DOCX_MAX_UNZIPPED_MB' },
      },
      {
        label: '20,000-page PDF',
        contentType: 'application/pdf',
        content: [pdfOf('One more page.', 20_000)],
        expect: { status: 400, says: 'PDF_MAX_PAGES' },
      },
      { label: '2 MiB-XML DOCX', contentType: DOCX, content: [docxOfSize(2 * MIB)], expect: { status: 200 } },
      {
        label: `${TEXT_MIB} MiB text`,
        contentType: 'text/plain',
        size: TEXT_MIB * MIB,
        content: text(),
        expect: { status: 200 },
      },
    ];
    for (const upload of uploads) {
      upload.size ??= upload.content[0].length;
      const created = await fetch(`${service.baseUrl}/api/w/${workspace.sId}/files`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${apiKey.secret}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          contentType: upload.contentType,
          fileName: 'hostile',
          fileSize: upload.size,
          useCase: 'conversation',
        }),
      }).then((res) => res.json());
      const url = new URL(created.file.uploadUrl);
      upload.target = `${service.baseUrl}${url.pathname}${url.search}`;
    }

    const stopQuiet = watchHealth(service.baseUrl);
    await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
    const quiet = await stopQuiet();
    const rows = [
      {
        scenario: 'hostile uploads: /healthz alone',
        rps: Math.round(quiet.count / (QUIET_MS / 1000)),
        p50: Math.round(quiet.p50),
        p99: Math.round(quiet.p99),
        errors: quiet.failures,
        note: `reference, before the uploads (max ${Math.round(quiet.max)} ms)`,
      },
    ];

    const before = procStatus(service.pid, 'VmRSS');
    const peakReset = resetPeak(service.pid);
    let sampled = before;
    let parsersPeak = 0;
    const sampler = setInterval(() => (sampled = Math.max(sampled, procStatus(service.pid, 'VmRSS'))), 25);
    // A scan of /proc costs the bench's CPU, which the service shares: a few a second.
    const parsersSampler = setInterval(
      () => (parsersPeak = Math.max(parsersPeak, parsersRss(service.pid))),
      250,
    );
    try {
      for (const upload of uploads) {
        parsersPeak = 0;
        const stopHealth = watchHealth(service.baseUrl);
        const started = performance.now();
        const { status, body } = await multipartUpload(upload.target, {
          contentType: upload.contentType,
          fileName: 'hostile',
          size: upload.size,
          chunks: upload.content,
        });
        const seconds = (performance.now() - started) / 1000;
        const health = await stopHealth();
        const parsed = JSON.parse(body);
        const met =
          status === upload.expect.status &&
          (status === 200
            ? parsed.file.status === 'ready'
            : parsed.error.type === 'file_too_large' && parsed.error.message.includes(upload.expect.says));
        const growth = ((peakReset ? procStatus(service.pid, 'VmHWM') : sampled) - before) / MIB;
        const failed = !met || health.failures > 0 || health.p99 >= TARGET_P99_MS || growth >= TARGET_RSS_MIB;
        rows.push({
          scenario: `hostile uploads: ${upload.label}`,
          rps: Math.round(health.count / seconds),
          p50: Math.round(health.p50),
          p99: Math.round(health.p99),
          errors: health.failures + (met ? 0 : 1),
          note:
            `${status}${upload.expect.says ? ` naming ${upload.expect.says}` : ''}${met ? '' : ' (unexpected)'} ` +
            `in ${seconds.toFixed(1)} s; /healthz max ${Math.round(health.max)} ms (p99 target < ${TARGET_P99_MS}); ` +
            `service peak RSS +${growth.toFixed(1)} MiB since the first upload (target < ${TARGET_RSS_MIB}); ` +
            `parser processes ${(parsersPeak / MIB).toFixed(0)} MiB${failed ? ' — MISSED' : ''}`,
          failed,
        });
      }
    } finally {
      clearInterval(sampler);
      clearInterval(parsersSampler);
    }
    return rows;
  },
};
