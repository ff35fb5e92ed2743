import { ready } from '../crypto/index.js';
import { CHRONICLE_MILESTONES_USAGE, chronicleMilestonesCommand } from './chronicle-milestones.js';
import { DECODE_USAGE, decodeCommand } from './decode.js';
import { ENCODE_USAGE, encodeCommand } from './encode.js';
import { EXPORT_SNAPSHOT_USAGE, exportSnapshotCommand } from './export-snapshot.js';
import { IMPORT_USAGE, importCommand } from './import.js';
import { IMPORT_MILESTONES_USAGE, importMilestonesCommand } from './import-milestones.js';
import { IMPORT_SNAPSHOT_USAGE, importSnapshotCommand } from './import-snapshot.js';
import { describeError, UsageError } from './io.js';
import { SERVE_USAGE, serveCommand } from './serve.js';
import { SIMULATE_USAGE, simulateCommand } from './simulate.js';
import { STATEMENT_USAGE, statementCommand } from './statement.js';
import { UPGRADE_USAGE, upgradeCommand } from './upgrade.js';
import { VERIFY_USAGE, verifyCommand } from './verify.js';
import { VERIFY_PROOF_USAGE, verifyProofCommand } from './verify-proof.js';

declare const __TANGLE_CORE_VERSION__: string | undefined;
/** Set by the build (tsup `define`) from package.json. */
export const VERSION = typeof __TANGLE_CORE_VERSION__ === 'string' ? __TANGLE_CORE_VERSION__ : 'development';

const COMMANDS = {
  serve: SERVE_USAGE,
  import: IMPORT_USAGE,
  'import-snapshot': IMPORT_SNAPSHOT_USAGE,
  'export-snapshot': EXPORT_SNAPSHOT_USAGE,
  'import-milestones': IMPORT_MILESTONES_USAGE,
  'chronicle-milestones': CHRONICLE_MILESTONES_USAGE,
  decode: DECODE_USAGE,
  encode: ENCODE_USAGE,
  simulate: SIMULATE_USAGE,
  'verify-proof': VERIFY_PROOF_USAGE,
  verify: VERIFY_USAGE,
  upgrade: UPGRADE_USAGE,
  statement: STATEMENT_USAGE,
} as const;
type Command = keyof typeof COMMANDS;

export const USAGE = `tangle-core ${VERSION} — IOTA Stardust codec, ledger index and node API core

usage: tangle-core <command> [options]      tangle-core <command> --help      tangle-core --version

${Object.values(COMMANDS).join('\n')}`;

const wantsHelp = (args: string[]) => args.includes('--help') || args.includes('-h');

/** Runs one command line. Returns the exit code, or -1 when the command keeps running (serve). */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === '--version' || command === '-v' || command === 'version') {
      process.stdout.write(`${VERSION}\n`);
      return 0;
    }
    if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
      const topic = command === 'help' ? rest[0] : undefined;
      process.stdout.write(topic !== undefined && Object.hasOwn(COMMANDS, topic) ? COMMANDS[topic as Command] : USAGE);
      return command === undefined ? 2 : 0;
    }
    if (!Object.hasOwn(COMMANDS, command))
      throw new UsageError(
        `unknown command ${JSON.stringify(command.slice(0, 40))} ` +
          `(${Object.keys(COMMANDS).join(', ')}; --help lists their options)`,
      );
    if (wantsHelp(rest)) {
      process.stdout.write(COMMANDS[command as Command]);
      return 0;
    }
    await ready();
    switch (command as Command) {
      case 'serve':
        await serveCommand(rest);
        return -1;
      case 'import':
        await importCommand(rest);
        return 0;
      case 'import-snapshot':
        await importSnapshotCommand(rest);
        return 0;
      case 'export-snapshot':
        await exportSnapshotCommand(rest);
        return 0;
      case 'import-milestones':
        await importMilestonesCommand(rest);
        return 0;
      case 'chronicle-milestones':
        await chronicleMilestonesCommand(rest);
        return 0;
      case 'decode':
        process.stdout.write(`${decodeCommand(rest)}\n`);
        return 0;
      case 'encode':
        process.stdout.write(`${encodeCommand(rest)}\n`);
        return 0;
      case 'simulate':
        await simulateCommand(rest);
        return 0;
      case 'verify-proof': {
        const { valid, line } = verifyProofCommand(rest);
        process.stdout.write(`${line}\n`);
        return valid ? 0 : 1;
      }
      case 'upgrade':
        process.stdout.write(`${await upgradeCommand(rest)}\n`);
        return 0;
      case 'verify':
        return (await verifyCommand(rest, (line) => process.stdout.write(`${line}\n`))) ? 0 : 1;
      case 'statement':
        // A page at a time, waiting for stdout to take it: a long statement is never held whole.
        await statementCommand(rest, (text) =>
          process.stdout.write(text) ? Promise.resolve() : new Promise((go) => process.stdout.once('drain', go)),
        );
        return 0;
    }
  } catch (e) {
    // node:util parseArgs: an unknown or malformed option is a usage error.
    const code = (e as { code?: string }).code;
    const usage = e instanceof UsageError || (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS'));
    // One line: node:util's own messages run over several.
    const text = describeError(e).split('\n')[0]!;
    const known = usage && command !== undefined && Object.hasOwn(COMMANDS, command);
    process.stderr.write(`error: ${text}${known ? ` (tangle-core ${command} --help)` : ''}\n`);
    return 2;
  }
  return 0;
}
