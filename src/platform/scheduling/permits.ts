/** Gives a permit back; calling it again does nothing. */
export type ReleasePermit = () => void;

/** At most `count` holders at a time; the others wait their turn, first come first served. */
export class Permits {
  private held = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly count: number) {}

  acquire(): Promise<ReleasePermit> {
    if (this.held < this.count) {
      this.held += 1;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve) => this.waiting.push(() => resolve(this.releaser())));
  }

  private releaser(): ReleasePermit {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      // Handed on as it is: the count held does not change.
      if (next) next();
      else this.held -= 1;
    };
  }
}
