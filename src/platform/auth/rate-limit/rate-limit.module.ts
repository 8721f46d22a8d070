import { Module } from '@nestjs/common';
import { RateLimitStore } from 'src/platform/auth/rate-limit/rate-limit-store';
import { RateLimiter } from 'src/platform/auth/rate-limit/rate-limiter';
import { TypeormRateLimitStore } from 'src/platform/auth/rate-limit/typeorm-rate-limit-store';

@Module({
  providers: [RateLimiter, { provide: RateLimitStore, useClass: TypeormRateLimitStore }],
  exports: [RateLimiter],
})
export class RateLimitModule {}
