/** What `work` throws, or undefined when it returns: for checking a synchronous error's type and fields. */
export function thrownBy(work: () => unknown): unknown {
  try {
    work();
  } catch (error) {
    return error;
  }
  return undefined;
}
