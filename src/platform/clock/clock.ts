import { Injectable } from '@nestjs/common';

/** Port: the current time, injectable so schedules can be tested without waiting. */
export abstract class Clock {
  abstract now(): Date;
}

@Injectable()
export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}
