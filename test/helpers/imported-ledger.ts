// A writable ledger imported from a snapshot file (a network's, a test network's genesis): what the history, analytics
// and coordinator tests start from.
import { importedParams, importSnapshot, inspectStore, type Ledger, openLedger } from '../../src/index.js';

/** Imports `full` (TIP-35 bytes) into a new store at `path` and opens it with the network the snapshot names. */
export async function importedLedger(path: string, full: Uint8Array): Promise<Ledger> {
  await importSnapshot({ path, full });
  return openLedger({ path, params: importedParams(inspectStore(path)!.imported!) });
}
