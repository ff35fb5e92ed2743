// A slot's UTXO changes carry their output IDs packed (issue 44): one buffer, a count, an accessor.
import { describe, expect, it } from 'vitest';
import { OutputIdList } from '../../../src/index.js';
import { errorCode } from '../../helpers/failure.js';

const id = (n: number) => Uint8Array.from({ length: 34 }, (_, i) => (n * 7 + i) & 0xff);

describe('OutputIdList', () => {
  const ids = [id(1), id(2), id(3)];

  it('holds the IDs end to end, and answers each by position, in order', () => {
    const list = OutputIdList.of(ids);
    expect(list.length).toBe(3);
    expect(list.bytes.length).toBe(102);
    expect(list.bytes.subarray(34, 68)).toEqual(id(2));
    expect(list.at(0)).toEqual(id(1));
    expect(list.at(2)).toEqual(id(3));
    expect([list.at(3), list.at(-1), list.at(1.5)]).toEqual([undefined, undefined, undefined]);
    expect(list.toArray()).toEqual(ids);
    expect([...list]).toEqual(ids);
    expect(list.map((x, i) => `${i}:${x[0]}`)).toEqual(['0:7', '1:14', '2:21']);
  });

  it('answers views of its buffer, not copies', () => {
    const bytes = Uint8Array.from(OutputIdList.of(ids).bytes);
    const view = new OutputIdList(bytes);
    view.at(1)![0] = 0xee;
    expect(bytes[34]).toBe(0xee);
  });

  it('refuses bytes that are not whole IDs, and IDs of another length', () => {
    expect(errorCode(() => new OutputIdList(new Uint8Array(35)))).toBe('INVALID_ARGUMENT');
    expect(errorCode(() => OutputIdList.of([new Uint8Array(33)]))).toBe('INVALID_ARGUMENT');
    expect(new OutputIdList(new Uint8Array(0)).length).toBe(0);
  });
});
