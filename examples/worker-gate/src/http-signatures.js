// HTTP Message Signatures (RFC 9421) for requests, as Web Bot Auth uses them: the Signature and
// Signature-Input fields read with `structured-headers` (RFC 9651 Structured Field Values, checked
// against RFC 9421 B.2.6 and the Web Bot Auth draft's vectors in test/identity.test.mjs), the
// signature base built from the covered components (§2.5), and the signature checked with
// WebCrypto. Only what a request can carry is supported: the derived components of §2.2 that
// need no query parsing, and fields with the `key` parameter (§2.1.2); anything else makes the
// signature unsupported, never silently accepted.
import { parseDictionary, serializeInnerList, serializeItem, Token } from 'structured-headers';

// RFC 9421 §3.3: the algorithm names and their WebCrypto parameters.
const ALGORITHMS = {
  ed25519: { name: 'Ed25519' },
  'rsa-pss-sha512': { name: 'RSA-PSS', saltLength: 64 },
};

/** A signature that cannot be checked: `code` is the reason the caller reports. */
export class SignatureError extends Error {
  constructor(code, message = code) {
    super(message);
    this.code = code;
  }
}

/**
 * The signatures of a request: `[{ label, components, params, input, signature }]`, one per
 * member of Signature-Input, in field order. `components`: the covered component identifiers as
 * `[name, Map(params)]`; `params`: the signature parameters (created, expires, keyid, alg, tag,
 * nonce); `input`: the member as parsed (its serialization is `@signature-params`); `signature`:
 * the bytes of the Signature member with the same label. Throws SignatureError('malformed-signature').
 */
export function signaturesOf(headers) {
  const inputField = headers.get('signature-input');
  const signatureField = headers.get('signature');
  if (inputField === null || signatureField === null) throw new SignatureError('malformed-signature', 'Signature and Signature-Input go together');
  let inputs;
  let signatures;
  try {
    inputs = parseDictionary(inputField);
    signatures = parseDictionary(signatureField);
  } catch (e) {
    throw new SignatureError('malformed-signature', e?.message);
  }
  const out = [];
  for (const [label, input] of inputs) {
    const sig = signatures.get(label);
    if (!Array.isArray(input[0]) || sig === undefined || Array.isArray(sig[0]) || !(sig[0] instanceof ArrayBuffer)) {
      throw new SignatureError('malformed-signature', `signature ${label}: Signature-Input must be an inner list, Signature a byte sequence`);
    }
    const components = input[0].map(([name, params]) => {
      if (typeof name !== 'string') throw new SignatureError('malformed-signature', `signature ${label}: a component identifier must be a string`);
      return [name, params];
    });
    out.push({ label, components, params: input[1], input, signature: new Uint8Array(sig[0]) });
  }
  return out;
}

/** The value of a derived component (§2.2), or throws SignatureError('unsupported-component'). */
function derived(name, request, url) {
  switch (name) {
    case '@method': return request.method;
    case '@target-uri': return url.href;
    case '@authority': return url.host; // lower case, default port omitted (§2.2.3)
    case '@scheme': return url.protocol.slice(0, -1);
    case '@request-target': return `${url.pathname}${url.search}`;
    case '@path': return url.pathname || '/';
    case '@query': return url.search === '' ? '?' : url.search;
    default: throw new SignatureError('unsupported-component', `${name} is not supported`);
  }
}

/**
 * The value of a covered field (§2.1): the field's value (Headers combines lines with ", " and
 * trims them), or with `key` the serialized value of that member of the field parsed as a
 * Dictionary (§2.1.2). Throws SignatureError: `missing-component` when the field or member is
 * absent, `unsupported-component` for parameters other than `key`.
 */
function fieldValue(name, params, headers) {
  const value = headers.get(name);
  if (value === null) throw new SignatureError('missing-component', `the covered field ${name} is absent`);
  if (params.size === 0) return value;
  if (params.size !== 1 || typeof params.get('key') !== 'string') {
    throw new SignatureError('unsupported-component', `${name}: only the key parameter is supported`);
  }
  const key = params.get('key');
  let dict;
  try {
    dict = parseDictionary(value);
  } catch {
    throw new SignatureError('missing-component', `${name} is not a Dictionary, so it has no member ${key}`);
  }
  const member = dict.get(key);
  if (member === undefined) throw new SignatureError('missing-component', `${name} has no member ${key}`);
  return Array.isArray(member[0]) ? serializeInnerList(member) : serializeItem(member);
}

/**
 * The signature base (§2.5) of one signature over `request`: one line per covered component,
 * then `@signature-params`. Throws SignatureError for a component that is missing, repeated or
 * not supported.
 */
export function signatureBase(request, sig, url = new URL(request.url)) {
  const lines = [];
  const seen = new Set();
  for (const [name, params] of sig.components) {
    const id = serializeItem([name, params]);
    if (seen.has(id)) throw new SignatureError('malformed-signature', `${id} is covered twice`);
    seen.add(id);
    if (name !== name.toLowerCase() || name === '@signature-params') throw new SignatureError('malformed-signature', `${id} is not a component identifier`);
    let value;
    if (name.startsWith('@')) {
      if (params.size !== 0) throw new SignatureError('unsupported-component', `${id}: parameters on a derived component are not supported`);
      value = derived(name, request, url);
    } else {
      value = fieldValue(name, params, request.headers);
    }
    lines.push(`${id}: ${value}`);
  }
  lines.push(`"@signature-params": ${serializeInnerList(sig.input)}`);
  return lines.join('\n');
}

const encoder = new TextEncoder();

/**
 * Whether `sig` is a valid signature over `base` (its signature base) under `key` (a CryptoKey
 * for `alg`, an RFC 9421 algorithm name). An `alg` parameter naming another algorithm fails
 * (§3.2 step 6).
 */
export async function verifySignature(sig, base, key, alg) {
  const named = stringParam(sig.params, 'alg');
  if (named !== undefined && named !== alg) return false;
  const algorithm = ALGORITHMS[alg];
  if (!algorithm) throw new SignatureError('unsupported-algorithm', `${alg} is not supported`);
  return crypto.subtle.verify(algorithm, key, sig.signature, encoder.encode(base));
}

/** A string parameter's value (Tokens and Strings alike), or undefined. */
export function stringParam(params, name) {
  const v = params.get(name);
  return typeof v === 'string' ? v : v instanceof Token ? v.toString() : undefined;
}
