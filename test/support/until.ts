/** Polls `read` until `check` accepts its value (for effects that happen after a response). */
export async function until<T>(
  read: () => Promise<T>,
  check: (value: T) => boolean,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > deadline) {
      throw new Error(`condition not met in time: ${JSON.stringify(value)?.slice(0, 500)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Polls a condition of this process (a counter, a flag) until it holds. */
export async function untilTrue(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
