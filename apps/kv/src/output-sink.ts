/** The stream an {@link OutputSink} writes to: stdout, or a test's stand-in. */
export type SinkStream = NodeJS.WritableStream & { destroyed?: boolean };

/**
 * Writes the CLI's output the way unix tools do: it waits for `'drain'` when the stream's buffer is full, and when
 * the reader went away (`EPIPE`: `rafkv db scan | head -2`) it stops writing quietly instead of dying of an
 * unhandled `'error'` event. Any other error on the stream is kept in {@link OutputSink.error} for the exit code.
 */
export class OutputSink {
  readonly #stream: SinkStream;
  #closed = false;
  #error: Error | undefined;

  constructor(stream: SinkStream) {
    this.#stream = stream;
    // Never removed: an EPIPE of the last write may be reported after the command has finished.
    stream.on("error", (error: NodeJS.ErrnoException) => {
      this.#closed = true;
      if (error.code !== "EPIPE" && error.code !== "ERR_STREAM_DESTROYED") this.#error ??= error;
    });
  }

  /** True once the reader went away (or the stream failed): further writes are dropped. */
  get closed(): boolean {
    return this.#closed || this.#stream.destroyed === true;
  }

  /** The stream's error other than `EPIPE`, if one happened. */
  get error(): Error | undefined {
    return this.#error;
  }

  /** Writes `chunk`, waiting for `'drain'` when the stream asks for it. Resolves to false once output is closed. */
  async write(chunk: string | Uint8Array): Promise<boolean> {
    if (this.closed) return false;
    if (this.#stream.write(chunk)) return !this.closed;
    if (this.closed) return false;
    await new Promise<void>((resolve) => {
      const done = () => {
        this.#stream.off("drain", done);
        this.#stream.off("close", done);
        this.#stream.off("error", done);
        resolve();
      };
      this.#stream.on("drain", done);
      this.#stream.on("close", done);
      this.#stream.on("error", done);
    });
    return !this.closed;
  }

  /** Waits until everything written so far has been handed on (or the stream failed). */
  flush(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      this.#stream.write("", () => resolve());
    });
  }
}
