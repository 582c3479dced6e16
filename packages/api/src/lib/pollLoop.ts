/**
 * A background worker's loop: runs `round` again and again until stopped, resting `idleMs`
 * after a round that found nothing to do (answered false) or failed (`onError` hears why).
 * `stop()` ends the rest at once and resolves when the round under way has finished.
 */
export function pollLoop(
  round: () => Promise<boolean>,
  idleMs: number,
  onError: (error: Error) => void,
): { stop(): Promise<void> } {
  let stopped = false;
  let wakeUp: (() => void) | undefined;
  const running = (async () => {
    while (!stopped) {
      let busy = false;
      try {
        busy = await round();
      } catch (error) {
        if (!stopped) onError(error as Error);
      }
      if (busy || stopped) continue;
      await new Promise<void>((resolve) => {
        wakeUp = resolve;
        setTimeout(resolve, idleMs).unref();
      });
    }
  })();
  return {
    async stop() {
      stopped = true;
      wakeUp?.();
      await running;
    },
  };
}
