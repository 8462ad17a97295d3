/**
 * Waits for `work`, but no longer than `ms`: 'done' when it settled (its failure is thrown), 'overran' when the time
 * ran out first. The timer is cleared either way, so a quick stop is not held open by it.
 */
export async function withinTime(work: Promise<void>, ms: number): Promise<'done' | 'overran'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<'overran'>((resolve) => {
    timer = setTimeout(() => resolve('overran'), ms);
  });
  try {
    return await Promise.race([work.then(() => 'done' as const), limit]);
  } finally {
    clearTimeout(timer);
  }
}
