import { Injectable } from '@nestjs/common';
import { RateLimitStore } from 'src/platform/auth/rate-limit/rate-limit-store';
import { DataSource } from 'typeorm';

/** One statement per reconciliation, whatever the number of keys. */
@Injectable()
export class TypeormRateLimitStore extends RateLimitStore {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async add(
    windowStart: Date,
    increments: ReadonlyMap<string, number>,
    keys: readonly string[],
  ): Promise<Map<string, number>> {
    // Sorted, so that processes lock the rows of a batch in the same order and never deadlock.
    const added = [...increments].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
    const rows = await this.dataSource.query<{ api_key_s_id: string; count: number }[]>(
      `WITH added AS (
         INSERT INTO rate_limit_counters (api_key_s_id, window_start, count)
         SELECT key, $1::timestamptz, n FROM unnest($2::varchar[], $3::int[]) WITH ORDINALITY AS batch(key, n, position)
         ORDER BY position
         ON CONFLICT (api_key_s_id, window_start)
         DO UPDATE SET count = rate_limit_counters.count + EXCLUDED.count
         RETURNING api_key_s_id, count
       )
       SELECT api_key_s_id, count FROM added
       UNION ALL
       SELECT api_key_s_id, count FROM rate_limit_counters
       WHERE window_start = $1 AND api_key_s_id = ANY($4::varchar[])
         AND api_key_s_id NOT IN (SELECT api_key_s_id FROM added)`,
      [windowStart, added.map(([key]) => key), added.map(([, n]) => n), [...keys]],
    );
    const totals = new Map<string, number>([...keys, ...increments.keys()].map((key) => [key, 0]));
    for (const row of rows) totals.set(row.api_key_s_id, Number(row.count));
    return totals;
  }

  async prune(before: Date): Promise<void> {
    await this.dataSource.query('DELETE FROM rate_limit_counters WHERE window_start < $1', [before]);
  }
}
