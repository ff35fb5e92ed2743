import { open } from 'lmdb';
for (const mapSize of [64 * 1024 ** 3, 2 * 1024 ** 2]) {
  try {
    const root = open({ path: '/tmp/sfs/db' + mapSize, keyEncoding: 'binary', encoding: 'binary', compression: false, overlappingSync: false, maxDbs: 64, mapSize });
    const t = root.openDB({ name: 't1', keyEncoding: 'binary', encoding: 'binary', compression: false, create: true });
    root.transactionSync(() => t.put(Buffer.from([1]), Buffer.from([2])));
    console.log(mapSize, 'ok', t.get(Buffer.from([1])));
    root.close();
  } catch (e) { console.log(mapSize, 'error', e.message); }
}
