#!/usr/bin/env node
import { main } from './main.js';

main(process.argv.slice(2)).then((code) => {
  if (code < 0) return; // serve keeps running
  process.exitCode = code;
  // A process a supervisor started (a worker or the writer of `serve --workers N`) has an IPC channel, and an open
  // channel keeps a process alive: a worker that failed to start would wait forever and never be replaced. Exit
  // (stderr is a pipe there, written synchronously: its line is out), with the code, which the supervisor logs.
  if (process.channel !== undefined) process.exit(code);
});
