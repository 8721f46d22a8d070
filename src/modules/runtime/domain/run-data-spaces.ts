/**
 * The restricted spaces whose data a run's tools (those of the agents it asks included) brought
 * in. Each action the run settles takes all of them to its conversation in the transaction that
 * writes its output, so no output is ever readable by a member outside one of them.
 */
export class RunDataSpaces {
  private readonly spaceSIds = new Set<string>();

  add(spaceSIds: readonly string[]): void {
    for (const spaceSId of spaceSIds) this.spaceSIds.add(spaceSId);
  }

  /** sIds, sorted. */
  get all(): string[] {
    return [...this.spaceSIds].sort();
  }
}
