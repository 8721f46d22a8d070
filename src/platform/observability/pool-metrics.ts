import { Injectable, OnModuleInit } from '@nestjs/common';
import type { Pool } from 'pg';
import { Metrics } from 'src/platform/observability/metrics';
import { DataSource } from 'typeorm';

/** The PostgreSQL pool's connections, read from TypeORM's driver when scraped. */
@Injectable()
export class PoolMetrics implements OnModuleInit {
  constructor(
    private readonly metrics: Metrics,
    private readonly dataSource: DataSource,
  ) {}

  onModuleInit(): void {
    const pool = () => (this.dataSource.driver as unknown as { master?: Pool }).master;
    this.metrics.labelledGauge(
      'db_pool_connections',
      'Connections of the PostgreSQL pool: open (total), idle, and queries waiting for one.',
      ['state'],
      () => {
        const current = pool();
        if (!current) return [];
        return [
          { labels: { state: 'total' }, value: current.totalCount },
          { labels: { state: 'idle' }, value: current.idleCount },
          { labels: { state: 'waiting' }, value: current.waitingCount },
        ];
      },
    );
  }
}
