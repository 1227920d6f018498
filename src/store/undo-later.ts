/**
 * Undo work that must reach a store that is failing right now: each task is tried until the store answers, with a
 * growing pause between tries, for at most `giveUpMs`; at most `maxPending` tasks wait at once (a store down for long
 * under heavy traffic drops the newest and counts them). Timers never keep the process alive.
 */
export interface UndoLater {
  /** Runs `task` now and again after each failure. */
  add(task: () => Promise<unknown>): void;
  /** Tasks still waiting for the store. */
  pending(): number;
  /** Tasks given up on (the store did not answer in `giveUpMs`, or too many were waiting). */
  dropped(): number;
}

export function createUndoLater(p: { giveUpMs: number; maxPending: number; firstPauseMs?: number }): UndoLater {
  const firstPause = p.firstPauseMs ?? 100;
  let waiting = 0;
  let dropped = 0;
  const attempt = (task: () => Promise<unknown>, startedAt: number, pause: number): void => {
    task().then(
      () => {
        waiting--;
      },
      () => {
        if (Date.now() - startedAt + pause > p.giveUpMs) {
          waiting--;
          dropped++;
          return;
        }
        setTimeout(() => attempt(task, startedAt, Math.min(pause * 2, 5_000)), pause).unref();
      },
    );
  };
  return {
    add(task) {
      if (waiting >= p.maxPending) {
        dropped++;
        return;
      }
      waiting++;
      attempt(task, Date.now(), firstPause);
    },
    pending: () => waiting,
    dropped: () => dropped,
  };
}
