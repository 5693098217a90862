// Who is asking: the identity of a request, decided before robots.txt is read. Two kinds of
// evidence, in this order:
// 1. Web Bot Auth (draft-ietf-webbotauth-httpsig-protocol-01): a signature tagged `web-bot-auth`
//    over the request's `@authority` and its Signature-Agent member, with a key of the directory
//    that member names. A valid one is `verified` (the agent is its directory's origin); one
//    that fails a check is `invalid`. Either decides alone. A signature whose keys cannot be had
//    is `unverified`, and the address check still applies (the draft's Appendix C, "Rollout and
//    Fallback": existing methods go on; an unverifiable signature is no identity).
// 2. Published address ranges (ip-lists.js): a User-Agent that claims a crawler with a list is
//    `ip-verified` from inside it, `spoofed` from outside.
// Anything else is `unverified`. worker.js turns the identity into a policy (README.md).
import { parseDictionary, parseItem } from 'structured-headers';
import { SignatureError, signatureBase, signaturesOf, stringParam, verifySignature } from './http-signatures.js';
import { directoryKey, directoryOf } from './directory.js';
import { checkClaim, ipListTable } from './ip-lists.js';
import { tokenFinder } from './product-tokens.js';
import { firstUse, replayKey } from './replay.js';
import { numberVar, parsedVar } from './vars.js';

// `created` may be this far in the future and `expires` this far in the past (clocks differ).
export const CLOCK_SKEW_S = 60;
// The longest validity window (`expires - created`) a signature may claim, by default: the
// draft's "It is RECOMMENDED that expiry be no more than 24 hours" (SIGNATURE_MAX_WINDOW_S).
export const MAX_WINDOW_S = 86_400;
// Signatures of one request looked at, at most (each may cost a directory fetch and a verify).
const MAX_SIGNATURES = 4;
const DIRECTORY_TIMEOUT_MS = 3000;
// The published test keys (RFC 9421 B.1.4 test-key-ed25519 and B.1.2 test-key-rsa-pss, by their
// RFC 7638 thumbprints): anyone can sign with them, so "Verifiers SHOULD reject known test keys"
// (the draft's "Test and Demonstration Keys").
export const TEST_KEYS = new Set(['poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U', 'oD0HwocPBSfpNy5W3bpJeyFGY_IQ_YpqxSjQ3Yd-CLA']);

/** `SIGNATURE_AGENTS` (`[{ origin, token }]`, or its JSON) as Map(origin or directory URL -> token). */
export function signatureAgents(value) {
  const rows = typeof value === 'string' && value.trim() !== '' ? JSON.parse(value) : value ?? [];
  if (!Array.isArray(rows)) throw new TypeError('SIGNATURE_AGENTS must be an array of { origin, token }');
  const map = new Map();
  for (const row of rows) {
    let url = null;
    try {
      url = new URL(row?.origin);
    } catch {
      // reported below
    }
    if (url === null || url.protocol !== 'https:' || typeof row.token !== 'string' || row.token === '') {
      throw new TypeError(`SIGNATURE_AGENTS: ${JSON.stringify(row)} needs an https origin and a product token`);
    }
    // An origin names its well-known directory; a longer URL names that directory exactly.
    map.set(url.pathname === '/' ? url.origin : `${url.origin}${url.pathname}`, row.token);
  }
  return map;
}

let config = null;
/** The parsed identity vars, kept while the platform passes the same `env` object. */
export function identityConfig(env) {
  if (config?.env !== env) {
    const lists = parsedVar(env, 'IP_LISTS', (v) => ipListTable(v, { builtIn: env.IP_LISTS_BUILT_IN !== 'off' }));
    const agents = parsedVar(env, 'SIGNATURE_AGENTS', signatureAgents);
    config = {
      env,
      agents,
      // The directories of configured signers, kept apart from others' (directory.js).
      pinnedIds: new Set([...agents.keys()].map((k) => directoryOf(k).id).filter(Boolean)),
      lists,
      // The claim a User-Agent makes, read by the engine in the configured dialect (the reading
      // that picks its robots.txt group).
      claims: tokenFinder(lists, env.DIALECT),
      directoryTimeoutMs: numberVar(env.DIRECTORY_TIMEOUT_MS, 0) || DIRECTORY_TIMEOUT_MS,
      maxWindowS: numberVar(env.SIGNATURE_MAX_WINDOW_S, 0) || MAX_WINDOW_S,
      // "request": a signature must also cover @method and the target (@path, @target-uri or
      // @request-target), as the draft advises signers who want to narrow its scope;
      // "authority" (default): @authority alone is enough, as the draft allows.
      coverage: env.SIGNATURE_COVERAGE === 'request' ? 'request' : 'authority',
    };
  }
  return config;
}

const outcome = (identity, reason, token = null, signatureAgent = null) => ({ identity, token, signatureAgent, reason });

/**
 * The reasons of a claim to be a listed crawler that could not be checked: no address the gate
 * can trust, the list down, or an address third parties send from too. Such a claim is not
 * believed (worker.js holds it to the `*` group): the claimed crawler's group goes only to a
 * request that proves it, never to one the gate could not check.
 */
export const UNCHECKED_CLAIM = new Set(['no-client-address', 'ip-list-unavailable', 'address-in-shared-list']);

/**
 * The Signature-Agent member a signature covers: `{ member }` (its URL string) or `{ identity,
 * reason }` when there is none to use. The dictionary form names the member with `key`; the
 * older plain-string form is covered whole (a signer that covers a whole dictionary field of
 * one member, as web-bot-auth 0.1.3 does, is read as that member: every byte of it is signed).
 */
function agentMember(sig, field) {
  const covered = sig.components.filter(([name]) => name === 'signature-agent');
  // No Signature-Agent: no URL to fetch keys from, and the gate holds none by other means (the
  // draft's "When No URL Is Available"). One that is sent must be signed.
  if (covered.length === 0) return field === null ? { identity: 'unverified', reason: 'no-signature-agent' } : { identity: 'invalid', reason: 'signature-agent-not-covered' };
  // Several covered members (a signer that also covers another's): its own is keyed by its label.
  const [, params] = covered.length === 1 ? covered[0] : covered.find(([, p]) => p.get('key') === sig.label) ?? [];
  if (params === undefined) return { identity: 'unverified', reason: 'signature-agent-ambiguous' };
  if (field === null) return { identity: 'invalid', reason: 'missing-component' };
  let item;
  if (params.has('key')) {
    try {
      item = parseDictionary(field).get(params.get('key'));
    } catch {
      return { identity: 'invalid', reason: 'malformed-signature-agent' };
    }
    if (item === undefined) return { identity: 'invalid', reason: 'missing-component' };
  } else {
    try {
      item = parseItem(field);
    } catch {
      try {
        const dict = parseDictionary(field);
        if (dict.size === 1) item = [...dict.values()][0];
      } catch {
        // neither form
      }
    }
  }
  // "A verifier MUST ignore a member that carries parameters."
  if (!item || typeof item[0] !== 'string' || item[1].size > 0) return { identity: 'unverified', reason: 'signature-agent-not-url' };
  return { member: item[0] };
}

const TARGETS = new Set(['@path', '@target-uri', '@request-target']);

/** One web-bot-auth signature checked: an outcome (`verified` carries `dir`). */
async function checkSignature(request, sig, url, nowMs, options) {
  const p = sig.params;
  const created = p.get('created');
  const expires = p.get('expires');
  const keyid = stringParam(p, 'keyid');
  // A nonce is a String (or Token) or, in earlier drafts, an Integer.
  const nonce = p.has('nonce') ? (Number.isInteger(p.get('nonce')) ? String(p.get('nonce')) : stringParam(p, 'nonce') ?? '') : undefined;
  // created and expires are both required: a signature without an end would live forever.
  if (!Number.isInteger(created) || !Number.isInteger(expires) || !keyid) return { identity: 'invalid', reason: 'missing-parameter' };
  if (nonce !== undefined && (nonce === '' || nonce.length > 256)) return { identity: 'invalid', reason: 'malformed-signature' };
  const now = nowMs / 1000;
  if (created > now + CLOCK_SKEW_S) return { identity: 'invalid', reason: 'not-yet-valid' };
  if (expires < now - CLOCK_SKEW_S || expires < created) return { identity: 'invalid', reason: 'expired' };
  if (expires - created > options.maxWindowS) return { identity: 'invalid', reason: 'window-too-long' };
  const covered = new Set(sig.components.map(([name]) => name));
  if (!covered.has('@authority') && !covered.has('@target-uri')) return { identity: 'invalid', reason: 'authority-not-covered' };
  if (options.coverage === 'request' && !(covered.has('@method') && [...TARGETS].some((c) => covered.has(c)))) return { identity: 'invalid', reason: 'request-not-covered' };
  const agent = agentMember(sig, request.headers.get('signature-agent'));
  if (!agent.member) return agent;
  // The base before any fetch: a signature over components the request lacks costs no fetch.
  let base;
  try {
    base = signatureBase(request, sig, url);
  } catch (e) {
    if (!(e instanceof SignatureError)) throw e;
    return { identity: e.code === 'unsupported-component' ? 'unverified' : 'invalid', reason: e.code };
  }
  if (TEST_KEYS.has(keyid)) return { identity: 'unverified', reason: 'test-key' };
  const dir = directoryOf(agent.member);
  if (dir.refused) return { identity: 'unverified', reason: dir.refused };
  const key = await directoryKey(dir, keyid, options);
  if (key.reason) return { identity: 'unverified', reason: key.reason };
  let valid;
  try {
    valid = await verifySignature(sig, base, key.key, key.alg);
  } catch {
    valid = false;
  }
  if (!valid) return { identity: 'invalid', reason: 'bad-signature' };
  // Used once within its window (replay.js), up to the latest moment it could still be accepted.
  const until = (Math.min(expires, created + options.maxWindowS) + CLOCK_SKEW_S) * 1000;
  const replay = await replayKey(dir.id, keyid, nonce, sig.signature, request.method, url);
  const used = await firstUse(replay, until, dir.id, options.env, nowMs);
  if (used === 'replayed') return { identity: 'invalid', reason: 'replayed' };
  if (used !== null) return { identity: 'unverified', reason: used };
  return { identity: 'verified', reason: 'signature-verified', dir };
}

/**
 * Web Bot Auth: null when the request carries no `web-bot-auth` signature (signatures with
 * other tags are not this protocol's and are left alone), else the outcome of its signatures:
 * the first verified one, else the first invalid one, else the first unverified one.
 */
async function webBotAuth(request, options) {
  if (!request.headers.has('signature-input') && !request.headers.has('signature')) return null;
  let sigs;
  try {
    sigs = signaturesOf(request.headers);
  } catch (e) {
    return { identity: 'invalid', reason: e.code ?? 'malformed-signature' };
  }
  const ours = sigs.filter((s) => stringParam(s.params, 'tag') === 'web-bot-auth').slice(0, MAX_SIGNATURES);
  if (ours.length === 0) return null;
  const url = new URL(request.url);
  let invalid = null;
  let unverified = null;
  for (const sig of ours) {
    const r = await checkSignature(request, sig, url, options.now, options);
    if (r.identity === 'verified') return r;
    if (r.identity === 'invalid') invalid ??= r;
    else unverified ??= r;
  }
  return invalid ?? unverified;
}

/**
 * The identity of `request`: `{ identity, token, signatureAgent, reason }` (README.md,
 * "Outcomes"). `env`: the Worker's env (SIGNATURE_AGENTS, IP_LISTS, IP_LISTS_BUILT_IN,
 * CRAWLER_IPS, DIRECTORY_TIMEOUT_MS); `now`: milliseconds since the epoch; `fetch`: the fetch for key
 * directories and address lists; `ctx`: the Worker's context, for work that outlives the request.
 */
export async function identify(request, env, { now = Date.now(), fetch: fetchFn = (u, i) => fetch(u, i), ctx } = {}) {
  const cfg = identityConfig(env);
  const options = { fetch: fetchFn, now, ctx, env, timeoutMs: cfg.directoryTimeoutMs, pinnedIds: cfg.pinnedIds, maxWindowS: cfg.maxWindowS, coverage: cfg.coverage };
  const signed = await webBotAuth(request, options);
  if (signed?.identity === 'verified') {
    const { dir } = signed;
    const token = (dir.wellKnown ? cfg.agents.get(dir.origin) : undefined) ?? cfg.agents.get(dir.id) ?? null;
    // With no token configured the gate goes by the User-Agent; a User-Agent that claims a listed
    // crawler from outside that crawler's addresses is not believed for being signed by someone.
    if (token === null) {
      const claim = await checkClaim(request, cfg.claims, env, fetchFn, now);
      if (claim?.identity === 'spoofed') return outcome('verified', 'claim-outside-list', null, dir.origin);
      if (claim?.identity === 'unverified') return outcome('verified', 'claim-unchecked', null, dir.origin);
    }
    return outcome('verified', signed.reason, token, dir.origin);
  }
  if (signed?.identity === 'invalid') return outcome('invalid', signed.reason);
  const claim = await checkClaim(request, cfg.claims, env, fetchFn, now);
  // A claim decides the group, so its outcome goes before an unverifiable signature's.
  if (claim !== null) return outcome(claim.identity, claim.reason, claim.token);
  return outcome('unverified', signed?.reason ?? 'no-claim');
}

/** The address check alone (for INVALID_SIGNATURE = "unverified": an invalid signature is then no signature). */
export async function identifyByAddress(request, env, { now = Date.now(), fetch: fetchFn = (u, i) => fetch(u, i) } = {}) {
  const claim = await checkClaim(request, identityConfig(env).claims, env, fetchFn, now);
  return claim === null ? outcome('unverified', 'no-claim') : outcome(claim.identity, claim.reason, claim.token);
}
