import { Clock } from 'src/platform/clock/clock';

/** The time as a test drives it: it moves only when told, so schedules are tested without waiting. */
export class FakeClock extends Clock {
  private current: number;

  constructor(start: Date | string | number = '2026-03-02T09:00:00.000Z') {
    super();
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  set(at: Date | string | number): void {
    this.current = new Date(at).getTime();
  }

  advance(ms: number): void {
    this.current += ms;
  }
}
