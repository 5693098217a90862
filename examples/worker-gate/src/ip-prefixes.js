// IP addresses and prefix sets, for the crawler lists (ip-lists.js) and for the addresses a key
// directory fetch must never reach (directory.js). A set is built once per list: its prefixes
// parsed to integers, sorted and merged into disjoint ranges, so a lookup is one binary search
// (an IPv4 lookup allocates nothing; an IPv6 one only its parse's small arrays). IPv4 addresses
// are one unsigned 32-bit word (no BigInt); IPv6 addresses are four words compared in order. An
// IPv4-mapped IPv6 address (::ffff:a.b.c.d) is looked up as the IPv4 address it carries.

const V6 = new Uint32Array(4); // the last IPv6 address parsed (parse6 writes here)

/** `s` as an IPv4 address (strict dotted decimal, as CF-Connecting-IP and the lists write it), or -1. */
export function parse4(s, from = 0, to = s.length) {
  let value = 0;
  let part = -1;
  let dots = 0;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c === 46) {
      if (part < 0 || dots === 3) return -1;
      value = value * 256 + part;
      part = -1;
      dots++;
    } else if (c >= 48 && c <= 57) {
      if (part === 0) return -1; // no leading zeros: "010" is octal to some parsers
      part = part < 0 ? c - 48 : part * 10 + c - 48;
      if (part > 255) return -1;
    } else {
      return -1;
    }
  }
  if (part < 0 || dots !== 3) return -1;
  return value * 256 + part;
}

/** Parses `s` (an IPv6 address, optionally ending in dotted IPv4) into V6; false when it is not one. */
function parse6(s, from = 0, to = s.length) {
  const groups = [];
  let gap = -1;
  let i = from;
  if (s.startsWith('::', i)) {
    gap = 0;
    i += 2;
    if (i === to) return fill6(groups, gap);
  }
  for (;;) {
    let j = i;
    let v = 0;
    while (j < to && j - i < 5) {
      const c = s.charCodeAt(j);
      const d = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1;
      if (d < 0) break;
      v = v * 16 + d;
      j++;
    }
    if (j < to && s.charCodeAt(j) === 46) {
      // An IPv4 tail takes the last two groups.
      const v4 = parse4(s, i, to);
      if (v4 < 0 || groups.length > 6) return false;
      groups.push(v4 >>> 16, v4 & 0xffff);
      break;
    }
    if (j === i || j - i > 4) return false;
    groups.push(v);
    if (groups.length > 8) return false;
    if (j === to) break;
    if (s.charCodeAt(j) !== 58) return false;
    if (s.charCodeAt(j + 1) === 58) {
      if (gap >= 0) return false;
      gap = groups.length;
      i = j + 2;
      if (i === to) break;
    } else {
      i = j + 1;
      if (i === to) return false;
    }
  }
  return fill6(groups, gap);
}

function fill6(groups, gap) {
  if (gap < 0 ? groups.length !== 8 : groups.length > 7) return false;
  const all = gap < 0 ? groups : [...groups.slice(0, gap), ...new Array(8 - groups.length).fill(0), ...groups.slice(gap)];
  for (let w = 0; w < 4; w++) V6[w] = ((all[2 * w] << 16) | all[2 * w + 1]) >>> 0;
  return true;
}

/**
 * An address: `{ v: 4, a }` (a: the 32-bit value) or `{ v: 6, w: [4 words] }`, or null. IPv4-mapped
 * IPv6 addresses come back as IPv4. Brackets (`[::1]`, as URL.hostname writes it) are accepted.
 */
export function parseAddress(s) {
  if (typeof s !== 'string') return null;
  let from = 0;
  let to = s.length;
  if (s.charCodeAt(0) === 91 && s.charCodeAt(to - 1) === 93) { from = 1; to--; }
  if (s.indexOf(':', from) < 0) {
    const a = parse4(s, from, to);
    return a < 0 ? null : { v: 4, a };
  }
  if (!parse6(s, from, to)) return null;
  if (V6[0] === 0 && V6[1] === 0 && V6[2] === 0xffff) return { v: 4, a: V6[3] };
  return { v: 6, w: Array.from(V6) };
}

/** Compares the 4 words at `a[i..]` with V6 (or `b[j..]`): -1, 0, 1. */
function cmp6(a, i, b, j) {
  for (let k = 0; k < 4; k++) {
    const x = a[i + k];
    const y = b[j + k];
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/**
 * A set of prefixes (`"192.0.2.0/24"`, `"2001:db8::/32"`, or a bare address) for fast membership.
 * Entries that do not parse are counted in `invalid` and left out. Host bits are ignored.
 */
export class PrefixSet {
  constructor(prefixes) {
    const v4 = [];
    const v6 = [];
    this.invalid = 0;
    for (const p of prefixes) {
      const text = String(p).trim();
      const slash = text.indexOf('/');
      const addr = slash < 0 ? text : text.slice(0, slash);
      const bits = slash < 0 ? -1 : Number(text.slice(slash + 1));
      const isV6 = addr.includes(':');
      const max = isV6 ? 128 : 32;
      const len = slash < 0 ? max : bits;
      if (!(Number.isInteger(len) && len >= 0 && len <= max && (slash < 0 || /^\d{1,3}$/.test(text.slice(slash + 1))))) { this.invalid++; continue; }
      if (!isV6) {
        const a = parse4(addr);
        if (a < 0) { this.invalid++; continue; }
        const mask = len === 0 ? 0 : (0xffffffff << (32 - len)) >>> 0;
        const start = (a & mask) >>> 0;
        v4.push([start, (start | ~mask) >>> 0]);
      } else {
        if (!parse6(addr)) { this.invalid++; continue; }
        const start = [];
        const end = [];
        for (let w = 0; w < 4; w++) {
          const keep = Math.max(0, Math.min(32, len - 32 * w));
          const mask = keep === 0 ? 0 : (0xffffffff << (32 - keep)) >>> 0;
          start.push((V6[w] & mask) >>> 0);
          end.push((V6[w] | ~mask) >>> 0);
        }
        // ::ffff:0:0/96 and longer: the IPv4 range it maps (lookups of mapped addresses are IPv4).
        if (len >= 96 && start[0] === 0 && start[1] === 0 && start[2] === 0xffff) v4.push([start[3], end[3]]);
        else v6.push([start, end]);
      }
    }
    // Sort by start, merge overlapping and adjacent ranges.
    v4.sort((x, y) => x[0] - y[0]);
    const s4 = [];
    const e4 = [];
    for (const [s, e] of v4) {
      const n = e4.length;
      if (n > 0 && s <= e4[n - 1] + 1) e4[n - 1] = Math.max(e4[n - 1], e);
      else { s4.push(s); e4.push(e); }
    }
    this.start4 = Uint32Array.from(s4);
    this.end4 = Uint32Array.from(e4);
    v6.sort((x, y) => cmp6(x[0], 0, y[0], 0));
    const r6 = [];
    for (const [s, e] of v6) {
      const n = r6.length;
      if (n > 0 && cmp6(s, 0, r6[n - 1][1], 0) <= 0) {
        if (cmp6(e, 0, r6[n - 1][1], 0) > 0) r6[n - 1][1] = e;
      } else {
        r6.push([s, e]);
      }
    }
    this.ranges6 = new Uint32Array(r6.length * 8);
    r6.forEach(([s, e], i) => { this.ranges6.set(s, i * 8); this.ranges6.set(e, i * 8 + 4); });
    this.size = this.start4.length + r6.length;
  }

  /** Whether the address (a string, as CF-Connecting-IP sends it) is in the set. */
  has(address) {
    if (typeof address !== 'string') return false;
    let from = 0;
    let to = address.length;
    if (address.charCodeAt(0) === 91 && address.charCodeAt(to - 1) === 93) { from = 1; to--; }
    if (address.indexOf(':', from) < 0) return this.has4(parse4(address, from, to));
    if (!parse6(address, from, to)) return false;
    if (V6[0] === 0 && V6[1] === 0 && V6[2] === 0xffff) return this.has4(V6[3]);
    return this.has6();
  }

  /** Whether a parsed address (parseAddress) is in the set. */
  hasParsed(addr) {
    if (addr === null) return false;
    if (addr.v === 4) return this.has4(addr.a);
    V6.set(addr.w);
    return this.has6();
  }

  has4(a) {
    if (a < 0) return false;
    const starts = this.start4;
    let lo = 0;
    let hi = starts.length - 1;
    // The last range whose start is <= a.
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (starts[mid] <= a) lo = mid + 1;
      else hi = mid - 1;
    }
    return hi >= 0 && a <= this.end4[hi];
  }

  has6() {
    const r = this.ranges6;
    let lo = 0;
    let hi = r.length / 8 - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (cmp6(r, mid * 8, V6, 0) <= 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return hi >= 0 && cmp6(V6, 0, r, hi * 8 + 4) <= 0;
  }
}
