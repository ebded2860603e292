// Writing a CLI's data to stdout so that none of it is lost when main()'s exit status ends the process at once:
// on a pipe, Node writes stdout asynchronously and process.exit() would drop what is still queued (beyond ~64 KB).
// Also the runner of the piped, database-free CLIs (score, judge:agreement): a closed pipe ends them quietly.

/** Writes `text` and a newline to stdout and resolves once Node has handed it to the operating system. */
export function printData(text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    process.stdout.write(`${text}\n`, (error) => (error ? reject(error) : resolve()));
  });
}

/** Resolves once everything written to `stream` so far has been handed to the operating system. */
function drained(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.writableLength === 0) resolve();
    else stream.write("", () => resolve());
  });
}

/**
 * Runs main() for a CLI without a database whose output is often piped: a closed pipe (`| head`) is a normal way to
 * stop reading, so it exits quietly; an error prints and exits with 1. Once main() is done and its output has
 * drained, the process exits at once: waiting for the event loop to empty also waits for worker threads to tear down
 * their heaps, which no output depends on.
 */
export function runPipedCommandLine(main: () => Promise<number>): void {
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(0);
    throw error;
  });
  main()
    .catch((error: unknown) => {
      console.error(error);
      return 1;
    })
    .then(async (code) => {
      await Promise.all([drained(process.stdout), drained(process.stderr)]);
      process.exit(code);
    });
}
