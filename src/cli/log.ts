// One JSON object per line on stderr: what every command logs.
export function jsonLogger(component: string): (line: string) => void {
  return (line) => {
    const at = new Date().toISOString();
    if (line.startsWith('{')) {
      try {
        process.stderr.write(`${JSON.stringify({ time: at, component, ...(JSON.parse(line) as object) })}\n`);
        return;
      } catch {
        // not JSON after all: log it as a message
      }
    }
    process.stderr.write(`${JSON.stringify({ time: at, component, msg: line })}\n`);
  };
}
