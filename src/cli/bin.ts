#!/usr/bin/env node
import { main } from './main.js';

main(process.argv.slice(2)).then((code) => {
  if (code < 0) return; // serve keeps running
  process.exitCode = code;
  // A command that failed ends here, whatever it had started: a serve whose port was taken has a demo's slot clock,
  // a writer or workers (which stop when this process's channel to them closes) that would keep it alive, serving
  // nothing. Its error line is out (standard error is written synchronously to files and pipes).
  if (code > 0) process.exit(code);
  // A process a supervisor started (a worker or the writer of `serve --workers N`) has an IPC channel, and an open
  // channel keeps a process alive: a worker that failed to start would wait forever and never be replaced. Exit
  // (stderr is a pipe there, written synchronously: its line is out), with the code, which the supervisor logs.
  if (process.channel !== undefined) process.exit(code);
});
