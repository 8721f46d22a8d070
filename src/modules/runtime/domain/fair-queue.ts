/**
 * Items waiting per owner (a workspace), taken round-robin across owners and in order within
 * each: an owner with a thousand waiting items delays another owner's next item by at most one
 * item of its own.
 */
export class FairQueue<Owner, Item> {
  /** Insertion order is the rotation: an owner goes to the back once an item of its is taken. */
  private readonly queues = new Map<Owner, Item[]>();
  private count = 0;

  push(owner: Owner, item: Item): void {
    const queue = this.queues.get(owner);
    if (queue) queue.push(item);
    else this.queues.set(owner, [item]);
    this.count++;
  }

  get size(): number {
    return this.count;
  }

  /** Takes `item` out of `owner`'s queue, where it waits no more; false when it was not there. */
  remove(owner: Owner, item: Item): boolean {
    const queue = this.queues.get(owner);
    const index = queue?.indexOf(item) ?? -1;
    if (!queue || index < 0) return false;
    queue.splice(index, 1);
    if (queue.length === 0) this.queues.delete(owner);
    this.count--;
    return true;
  }

  /** The oldest item of the first owner in turn that `admits` takes one now; undefined if none. */
  take(admits: (owner: Owner) => boolean = () => true): Item | undefined {
    for (const [owner, queue] of this.queues) {
      if (!admits(owner)) continue;
      const item = queue.shift()!;
      this.queues.delete(owner);
      if (queue.length > 0) this.queues.set(owner, queue);
      this.count--;
      return item;
    }
    return undefined;
  }
}
