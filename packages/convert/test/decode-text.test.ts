import { decodeText, findInvalidUtf8 } from "@hierdoc/convert";
import { caught, expectFileError, utf8 } from "./helpers.js";

describe("decodeText", () => {
  it("decodes UTF-8 and strips a UTF-8 BOM", () => {
    expect(decodeText("a.txt", utf8("héllo § 1"))).toBe("héllo § 1");
    expect(decodeText("a.txt", new Uint8Array([0xef, 0xbb, 0xbf, ...utf8("x")]))).toBe("x");
  });

  it("decodes UTF-16 LE and BE with a BOM", () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("§ 1. Title\r\n", "utf16le")]);
    expect(decodeText("le.txt", le)).toBe("§ 1. Title\r\n");
    const beBody = Buffer.from("Ωmega", "utf16le").swap16();
    expect(decodeText("be.txt", Buffer.concat([Buffer.from([0xfe, 0xff]), beBody]))).toBe("Ωmega");
  });

  it("reports the byte offset, line and column of the first invalid UTF-8 sequence", async () => {
    const bytes = new Uint8Array([...utf8("line one\nline two é "), 0xc3, 0x28, ...utf8(" tail")]);
    const err = await expectFileError(() => decodeText("bad.txt", bytes), "E_INPUT_ENCODING", "bad.txt");
    expect(err.details.offset).toBe(21); // 9 bytes "line one\n" + 12 bytes "line two é "
    expect(err.details.line).toBe(2);
    expect(err.details.column).toBe(13);
  });

  it("rejects overlong encodings, surrogates and truncated sequences", () => {
    expect(findInvalidUtf8(new Uint8Array([0x41, 0xc0, 0xaf]))).toBe(1);
    expect(findInvalidUtf8(new Uint8Array([0xed, 0xa0, 0x80]))).toBe(0);
    expect(findInvalidUtf8(new Uint8Array([0x41, 0x42, 0xe2, 0x82]))).toBe(2);
    expect(findInvalidUtf8(new Uint8Array([0xf4, 0x90, 0x80, 0x80]))).toBe(0);
    expect(findInvalidUtf8(utf8("ok € 𝄞"))).toBe(-1);
  });

  it("agrees with the platform's strict decoder on random bytes", () => {
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    for (let n = 0; n < 2000; n++) {
      const bytes = new Uint8Array(Array.from({ length: 1 + Math.floor(rand() * 8) }, () => Math.floor(rand() * 256)));
      let valid = true;
      try {
        new TextDecoder("utf-8", { fatal: true }).decode(bytes);
      } catch {
        valid = false;
      }
      expect(findInvalidUtf8(bytes) === -1).toBe(valid);
    }
  });

  it("rejects binary content, odd-length UTF-16 and empty files", async () => {
    await expectFileError(() => decodeText("x.bin", new Uint8Array([0x41, 0, 0x42])), "E_INPUT_BINARY", "x.bin");
    await expectFileError(() => decodeText("o.txt", new Uint8Array([0xff, 0xfe, 0x41])), "E_INPUT_ENCODING", "o.txt");
    await expectFileError(() => decodeText("e.txt", new Uint8Array()), "E_INPUT_EMPTY", "e.txt");
    await expectFileError(() => decodeText("w.txt", utf8(" \n\t\r\n ")), "E_INPUT_EMPTY", "w.txt");
    const err = await caught(() => decodeText("u32.txt", new Uint8Array([0xff, 0xfe, 0, 0, 0x41, 0, 0, 0])));
    expect(err.code).toBe("E_INPUT_ENCODING");
  });
});
