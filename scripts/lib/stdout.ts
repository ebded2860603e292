// Writing a CLI's data to stdout so that none of it is lost when main()'s exit status ends the process at once:
// on a pipe, Node writes stdout asynchronously and process.exit() would drop what is still queued (beyond ~64 KB).

/** Writes `text` and a newline to stdout and resolves once Node has handed it to the operating system. */
export function printData(text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    process.stdout.write(`${text}\n`, (error) => (error ? reject(error) : resolve()));
  });
}
