// Reading a .wasm's sections: scripts/build-pkg.mjs (its checks, and the exports it drops) and
// bench/js/cold-functions.mjs (function names and body sizes).

/** Reads a .wasm from byte 8 (after the header): `at` is the position. */
export function wasmReader(bytes) {
  return {
    at: 8,
    /** An unsigned LEB128. */
    leb() {
      let r = 0;
      let shift = 0;
      let x;
      do {
        x = bytes[this.at++];
        r |= (x & 0x7f) << shift;
        shift += 7;
      } while (x & 0x80);
      return r >>> 0;
    },
    /** A name (its LEB128 length, then UTF-8). */
    name() {
      const len = this.leb();
      this.at += len;
      return new TextDecoder().decode(bytes.subarray(this.at - len, this.at));
    },
    /** An import's description after its kind byte 1-3 (table, memory, global). */
    skipImport(kind) {
      if (kind === 3) {
        this.at += 2; // global: value type, mutability
        return;
      }
      if (kind === 1) this.at++; // table: element type, then limits as a memory's
      const flags = bytes[this.at++];
      this.leb();
      if (flags & 1) this.leb();
    },
  };
}

/**
 * Each section of a .wasm, in order: `f(id, reader)` with the reader at the section's content and
 * `reader.end` its end (the reader is moved there afterwards, whatever `f` read).
 */
export function forEachSection(bytes, f) {
  const r = wasmReader(bytes);
  while (r.at < bytes.length) {
    const id = bytes[r.at++];
    const end = r.leb() + r.at;
    r.end = end;
    f(id, r);
    r.at = end;
  }
}
