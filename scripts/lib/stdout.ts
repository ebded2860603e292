// Writing a CLI's data to stdout so that none of it is lost when main()'s exit status ends the process at once:
// on a pipe, Node writes stdout asynchronously and process.exit() would drop what is still queued (beyond ~64 KB).
// Also the runner of the piped, database-free CLIs (score, judge:agreement): a closed pipe ends them quietly.

/** Writes `text` and a newline to stdout and resolves once Node has handed it to the operating system. */
export function printData(text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    process.stdout.write(`${text}\n`, (error) => (error ? reject(error) : resolve()));
  });
}

/**
 * Runs main() for a CLI without a database whose output is often piped: a closed pipe (`| head`) is a normal way to
 * stop reading, so it exits quietly; the exit status is set rather than forced so queued output drains; an error
 * prints and exits with 1.
 */
export function runPipedCommandLine(main: () => Promise<number>): void {
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(0);
    throw error;
  });
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
