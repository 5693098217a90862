// Reading wrangler.toml vars: a malformed var is reported and replaced by its default, never an
// error page (traffic must not break over configuration).

/** A var as a non-negative number, or `fallback` when it is unset or not one. */
export function numberVar(value, fallback) {
  const n = Number(value);
  return value !== undefined && value !== '' && Number.isFinite(n) && n >= 0 ? n : fallback;
}

/** `env[name]` parsed by `parse`, or when that throws, `parse()` (the default) and a log line. */
export function parsedVar(env, name, parse) {
  try {
    return parse(env[name]);
  } catch (e) {
    console.error(`worker-gate: ${e.message}; ${name} ignored, the built-in default applies`);
    return parse();
  }
}
