// bench/history-growth.mjs's genesis snapshot, written in a worker thread: a million milestones' 5,000,000 genesis
// outputs are built as objects to encode the file, and a thread's heap is handed back whole when it ends, where the
// long generation after it would otherwise carry them (2026-11-29: RSS 13 GB before the first thousand milestones).
import { writeFileSync } from 'node:fs';
import { workerData } from 'node:worker_threads';
import { genesisSnapshot } from './history-generate.mjs';

const { outputs, path } = workerData;
writeFileSync(path, (await genesisSnapshot(outputs)).file);
