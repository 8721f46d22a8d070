import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** Requests of one API key in one fixed window, summed over every process. */
@Entity('rate_limit_counters')
@Index(['windowStart'])
export class RateLimitCounterEntity {
  @PrimaryColumn({ name: 'api_key_s_id', type: 'varchar', length: 40 })
  apiKeySId!: string;

  @PrimaryColumn({ name: 'window_start', type: 'timestamptz' })
  windowStart!: Date;

  @Column({ type: 'int' })
  count!: number;
}
