import { readFile } from 'node:fs/promises';

/** What a service process went through while it was watched. */
export interface ProcessWatchReport {
  /** `/healthz` answers received, and the 99th percentile and worst of their latencies (ms). */
  healthChecks: number;
  healthP99Ms: number;
  healthMaxMs: number;
  /** Health checks that failed (connection refused, non-200): the process went down or stalled. */
  healthFailures: number;
  /** Resident memory when the watch began, and the most it grew past that (bytes). */
  baselineRssBytes: number;
  peakRssGrowthBytes: number;
}

export interface ProcessWatch {
  stop(): Promise<ProcessWatchReport>;
}

/** Resident set size of a process, from `/proc/<pid>/status` (Linux). */
export async function residentBytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const line = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
  if (!line) throw new Error(`No VmRSS in /proc/${pid}/status`);
  return Number(line[1]) * 1024;
}

/**
 * Watches a running service: `/healthz` one request after another (so a stalled event loop shows
 * as latency), and its resident memory every `sampleMs`. `stop()` ends both and reports.
 */
export async function watchProcess(baseUrl: string, pid: number, sampleMs = 25): Promise<ProcessWatch> {
  const baselineRssBytes = await residentBytes(pid);
  let peakRss = baselineRssBytes;
  const latencies: number[] = [];
  let failures = 0;
  let running = true;

  const health = (async () => {
    while (running) {
      const started = performance.now();
      const ok = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(30_000) }).then(
        async (res) => {
          await res.arrayBuffer();
          return res.status === 200;
        },
        () => false,
      );
      if (ok) latencies.push(performance.now() - started);
      else failures += 1;
      await new Promise((resolve) => setTimeout(resolve, sampleMs));
    }
  })();
  const memory = (async () => {
    while (running) {
      peakRss = Math.max(peakRss, await residentBytes(pid).catch(() => peakRss));
      await new Promise((resolve) => setTimeout(resolve, sampleMs));
    }
  })();

  return {
    async stop() {
      running = false;
      await Promise.all([health, memory]);
      const sorted = [...latencies].sort((a, b) => a - b);
      const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
      return {
        healthChecks: sorted.length,
        healthP99Ms: at(0.99),
        healthMaxMs: sorted.at(-1) ?? 0,
        healthFailures: failures,
        baselineRssBytes,
        peakRssGrowthBytes: peakRss - baselineRssBytes,
      };
    },
  };
}
