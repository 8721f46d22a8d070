/** The reason a run's signal carries when its process stops: the run is interrupted, not cancelled. */
export class ShutdownSignal extends Error {
  constructor() {
    super('shutdown');
  }
}
