import type { Caller } from 'src/platform/auth/caller';
import type { RunAnswer } from 'src/modules/runtime/application/ports/answer-sink';

/** A run under way: the answer it writes, the member it acts for, and its record (an `AgentRun`). */
export interface Run extends RunAnswer {
  caller: Caller;
  /** The `AgentRun`'s id. */
  runId: number;
  /** The runner holding the run: its process hands the run over when it stops. */
  runnerId: string;
  /** Recorded just now by `start`: it made no step yet, so it has none to read back. */
  fresh?: boolean;
}
