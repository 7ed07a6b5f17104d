/** `1 recording`, `2 recordings`, `0 recordings`: a count with its noun in the right number. */
export function counted(count: number, noun: string, many = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : many}`;
}
