// A Web Bot Auth signer for the tests (Node's crypto), written from RFC 9421 §2.5 and the draft
// independently of src/: it builds the signature base as text and signs it with Ed25519. The
// verifier's own reading of the fields is pinned by the published vectors (test/data).
import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';

/** A fresh Ed25519 signer: `{ jwk, keyid, privateKey }` (keyid: the RFC 7638 thumbprint). */
export function newKey() {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const { crv, kty, x } = publicKey.export({ format: 'jwk' });
  const keyid = createHash('sha256').update(JSON.stringify({ crv, kty, x })).digest('base64url');
  return { jwk: { kty, crv, x }, keyid, privateKey };
}

/**
 * Headers that sign a request to `url` as `agent` (a Signature-Agent URL) with `key`.
 * Options: `form` ('dictionary' | 'legacy' | 'none': no Signature-Agent field), `member` (the
 * dictionary key, default 'agent1'), `label` ('sig1'), `created`/`expires` (seconds; default now
 * and now + 300), `tag`, `components` (default ['@authority', the Signature-Agent component]),
 * `extra` (more header fields, signed when named in `components`), `keyid` (default the key's),
 * `coverAgent` (false: do not cover Signature-Agent), `wholeField` (cover the whole dictionary field),
 * `nonce` (default a fresh random one, as signers send; null: none), `method` (for `@method`).
 */
export function signedHeaders(url, agent, key, o = {}) {
  const u = new URL(url);
  const now = Math.floor(Date.now() / 1000);
  const form = o.form ?? 'dictionary';
  const member = o.member ?? 'agent1';
  const label = o.label ?? 'sig1';
  const headers = { ...(o.extra ?? {}) };
  let agentComponent = null;
  if (form === 'dictionary') {
    headers['signature-agent'] = `${member}="${agent}"`;
    agentComponent = ['"signature-agent";key="' + member + '"', `"${agent}"`];
  } else if (form === 'legacy') {
    headers['signature-agent'] = `"${agent}"`;
    agentComponent = ['"signature-agent"', `"${agent}"`];
  }
  // The whole dictionary field signed instead of its member (what web-bot-auth 0.1.3 does).
  if (o.wholeField) agentComponent = ['"signature-agent"', headers['signature-agent']];
  const components = o.components ?? ['@authority', ...(agentComponent && o.coverAgent !== false ? ['signature-agent'] : [])];
  const lines = [];
  const ids = [];
  for (const c of components) {
    if (c === 'signature-agent') {
      lines.push(`${agentComponent[0]}: ${agentComponent[1]}`);
      ids.push(agentComponent[0]);
    } else if (c === '@authority') {
      lines.push(`"@authority": ${o.authority ?? u.host}`);
      ids.push('"@authority"');
    } else if (c === '@path') {
      lines.push(`"@path": ${u.pathname}`);
      ids.push('"@path"');
    } else if (c === '@method') {
      lines.push(`"@method": ${o.method ?? 'GET'}`);
      ids.push('"@method"');
    } else {
      lines.push(`"${c}": ${headers[c]}`);
      ids.push(`"${c}"`);
    }
  }
  const created = o.created ?? now;
  const expires = o.expires ?? now + 300;
  const nonce = o.nonce === undefined ? randomBytes(32).toString('base64') : o.nonce;
  const params = `(${ids.join(' ')});created=${created};expires=${expires};keyid="${o.keyid ?? key.keyid}";${nonce === null ? '' : `nonce="${nonce}";`}tag="${o.tag ?? 'web-bot-auth'}"`;
  lines.push(`"@signature-params": ${params}`);
  const signature = sign(null, Buffer.from(lines.join('\n')), key.privateKey).toString('base64');
  return { ...headers, 'signature-input': `${label}=${params}`, signature: `${label}=:${signature}:` };
}
