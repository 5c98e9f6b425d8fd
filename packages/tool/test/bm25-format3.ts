/** A format-4 bm25.bin rewritten as format 3 (the ids moved into the JSON header, their offsets and bytes dropped). */
export function toBm25Format3(bytes: Buffer): Buffer {
  const jsonLen = bytes.readUInt32LE(8);
  const header = JSON.parse(bytes.subarray(12, 12 + jsonLen).toString("utf8")) as { version: number; docs?: number; idBytes?: number; ids?: string[] };
  const body = bytes.subarray(12 + jsonLen + ((4 - ((12 + jsonLen) % 4)) % 4));
  const n = header.docs!;
  const offsetsAt = 8 * n;
  const offsets = new Int32Array(body.buffer.slice(body.byteOffset + offsetsAt, body.byteOffset + offsetsAt + 4 * (n + 1)));
  const idBytes = body.subarray(body.length - header.idBytes!);
  header.ids = Array.from({ length: n }, (_, s) => idBytes.toString("utf8", offsets[s], offsets[s + 1]));
  header.version = 3;
  delete header.docs;
  delete header.idBytes;
  const arrays = Buffer.concat([body.subarray(0, offsetsAt), body.subarray(offsetsAt + 4 * (n + 1), body.length - idBytes.length)]);
  const json = Buffer.from(JSON.stringify(header), "utf8");
  const len = Buffer.alloc(4);
  len.writeUInt32LE(json.length);
  const pad = Buffer.alloc((4 - ((12 + json.length) % 4)) % 4);
  return Buffer.concat([Buffer.from("HDBM25\u0000\u0003", "latin1"), len, json, pad, arrays]);
}
