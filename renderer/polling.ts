/* Polling for list pages (`poll`) and dashboard panels (`refresh`). */

/**
 * Calls `tick` every `ms` while the document is visible: the next call is timed from the end of the
 * previous one (requests never pile up); a hidden tab pauses, and showing it again ticks at once.
 * Returns the stop function (unmount).
 */
export function startPolling(tick: () => Promise<unknown>, ms: number, doc: Pick<Document, 'hidden' | 'addEventListener' | 'removeEventListener'> = document): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running = false;
  let stopped = false;
  const schedule = () => {
    clearTimeout(timer);
    timer = undefined;
    if (!stopped && !doc.hidden && !running) timer = setTimeout(() => void go(), ms);
  };
  const go = async () => {
    if (stopped || running || doc.hidden) return;
    running = true;
    try {
      await tick();
    } catch {
      // a failed poll is shown by the caller; the next one tries again
    } finally {
      running = false;
      schedule();
    }
  };
  const onVisibility = () => {
    if (doc.hidden) {
      clearTimeout(timer);
      timer = undefined;
    } else if (!running) void go();
  };
  doc.addEventListener('visibilitychange', onVisibility);
  schedule();
  return () => {
    stopped = true;
    clearTimeout(timer);
    doc.removeEventListener('visibilitychange', onVisibility);
  };
}
