// Runs tasks with the same key one after another, in arrival order, on this instance. Account
// changes use it so that parallel lock/unlock/copy calls on one account apply in the order they
// arrived and each answer shows the state its own change produced.
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<unknown>>();

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const current = previous.then(task, task);
    const tail = current.catch(() => undefined);
    this.tails.set(key, tail);
    try {
      return await current;
    } finally {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  /** Runs under several keys at once (taken in sorted order, so two callers cannot deadlock). */
  async runAll<T>(keys: readonly string[], task: () => Promise<T>): Promise<T> {
    const sorted = [...new Set(keys)].sort();
    const step = (i: number): Promise<T> => (i === sorted.length ? task() : this.run(sorted[i]!, () => step(i + 1)));
    return step(0);
  }
}
