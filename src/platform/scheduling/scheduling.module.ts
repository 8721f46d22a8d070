import { Global, Module } from '@nestjs/common';
import { UrgentWork } from 'src/platform/scheduling/urgent-work';

/** One `UrgentWork` per process, shared by the contexts that run background work. */
@Global()
@Module({ providers: [UrgentWork], exports: [UrgentWork] })
export class SchedulingModule {}
