// Polls until a check passes or a deadline expires; the last failure is rethrown
// so the test says what was still wrong.
export async function waitFor<T>(check: () => T, timeoutMs = 5_000, intervalMs = 10): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return check();
    } catch (err) {
      if (Date.now() > deadline) throw err;
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
