// Preloaded (`node --import …/exit-with-parent.mjs`, see exit-with-parent.ts) into every long-running child
// a test starts (gateway-up.ts, `warren serve`, `warren apiserver`, `warren up`),
// whose stdin is a pipe from the test process. When the test process dies in
// any way (a runner timeout, SIGKILL, a crash), the kernel closes that pipe and
// the child sees end-of-file: it stops itself with SIGTERM (its own graceful
// shutdown), and exits for good 10 s later. Before this, a child spawned with
// stdin 'ignore' outlived a killed test run (a gateway-up.ts left running for
// half an hour): a signal handler in the parent never runs on SIGKILL, and
// detached or not, nothing else tells the child its parent is gone.
// Plain JavaScript, so it preloads into any node child, with or without tsx.
const stdin = process.stdin;
// Only in a child whose stdin is a pipe (never a terminal a person types into).
if (!stdin.isTTY && process.env.WARREN_EXIT_WITH_PARENT === '1') {
  const gone = () => {
    process.kill(process.pid, 'SIGTERM');
    globalThis.setTimeout(() => process.exit(1), 10_000).unref();
  };
  stdin.on('end', gone);
  stdin.on('error', gone);
  stdin.resume();
  // Reading stdin must not keep a child alive that would otherwise exit.
  stdin.unref?.();
}
