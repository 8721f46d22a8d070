import { Global, Module } from '@nestjs/common';
import { Clock, SystemClock } from 'src/platform/clock/clock';

/** One clock for every context, so a test that replaces it controls the time everywhere. */
@Global()
@Module({
  providers: [{ provide: Clock, useClass: SystemClock }],
  exports: [Clock],
})
export class ClockModule {}
