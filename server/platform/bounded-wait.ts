/** Resolves when the callback handed to `register` is called, or after `timeoutMs`, whichever comes first. */
export function boundedWait(timeoutMs: number, register: (done: () => void) => void): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, timeoutMs);
    register(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
