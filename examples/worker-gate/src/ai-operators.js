// GENERATED from src/aipref/operators.rs by scripts/ai-operators.mjs: do not edit; edit the Rust
// table and run `node scripts/ai-operators.mjs` (test/ai-operators.test.mjs fails when they differ).
// The operator table: each token, its operator, what it is, the AI purposes its operator documents
// (the aipref labels train-ai, ai-use, search) and the operator's documentation.
export const OPERATORS = [
  {"token":"Googlebot","operator":"Google","kind":"crawler","purposes":["ai-use","search"],"source":"https://developers.google.com/crawling/docs/crawlers-fetchers/google-common-crawlers"},
  {"token":"Google-Extended","operator":"Google","kind":"control-token","purposes":["train-ai","ai-use"],"source":"https://developers.google.com/crawling/docs/crawlers-fetchers/google-common-crawlers#google-extended","fetchedBy":"Googlebot"},
  {"token":"Applebot","operator":"Apple","kind":"crawler","purposes":["ai-use","search"],"source":"https://support.apple.com/en-us/119829"},
  {"token":"Applebot-Extended","operator":"Apple","kind":"control-token","purposes":["train-ai"],"source":"https://support.apple.com/en-us/119829","fetchedBy":"Applebot"},
  {"token":"GPTBot","operator":"OpenAI","kind":"crawler","purposes":["train-ai"],"source":"https://developers.openai.com/api/docs/bots"},
  {"token":"OAI-SearchBot","operator":"OpenAI","kind":"crawler","purposes":["ai-use","search"],"source":"https://developers.openai.com/api/docs/bots"},
  {"token":"ChatGPT-User","operator":"OpenAI","kind":"user-fetcher","purposes":["ai-use"],"source":"https://developers.openai.com/api/docs/bots","robotsTxt":"OpenAI: for user-initiated requests \"robots.txt rules may not apply\""},
  {"token":"ClaudeBot","operator":"Anthropic","kind":"crawler","purposes":["train-ai"],"source":"https://support.claude.com/en/articles/8896518"},
  {"token":"Claude-SearchBot","operator":"Anthropic","kind":"crawler","purposes":["ai-use","search"],"source":"https://support.claude.com/en/articles/8896518"},
  {"token":"Claude-User","operator":"Anthropic","kind":"user-fetcher","purposes":["ai-use"],"source":"https://support.claude.com/en/articles/8896518"},
  {"token":"PerplexityBot","operator":"Perplexity","kind":"crawler","purposes":["ai-use","search"],"source":"https://docs.perplexity.ai/guides/bots"},
  {"token":"Perplexity-User","operator":"Perplexity","kind":"user-fetcher","purposes":["ai-use"],"source":"https://docs.perplexity.ai/guides/bots","robotsTxt":"Perplexity: the user-requested fetcher \"generally ignores robots.txt rules\""},
  {"token":"meta-externalagent","operator":"Meta","kind":"crawler","purposes":["train-ai"],"source":"https://developers.facebook.com/docs/sharing/webmasters/web-crawlers"},
  {"token":"meta-webindexer","operator":"Meta","kind":"crawler","purposes":["ai-use","search"],"source":"https://developers.facebook.com/docs/sharing/webmasters/web-crawlers"},
  {"token":"meta-externalfetcher","operator":"Meta","kind":"user-fetcher","purposes":["ai-use"],"source":"https://developers.facebook.com/docs/sharing/webmasters/web-crawlers","robotsTxt":"Meta: user-requested fetches may bypass robots.txt"},
  {"token":"facebookexternalhit","operator":"Meta","kind":"link-previews","purposes":[],"source":"https://developers.facebook.com/docs/sharing/webmasters/web-crawlers"},
  {"token":"Amazonbot","operator":"Amazon","kind":"crawler","purposes":["train-ai"],"source":"https://developer.amazon.com/amazonbot"},
  {"token":"Amzn-SearchBot","operator":"Amazon","kind":"crawler","purposes":["ai-use","search"],"source":"https://developer.amazon.com/amazonbot"},
  {"token":"Amzn-User","operator":"Amazon","kind":"user-fetcher","purposes":["ai-use"],"source":"https://developer.amazon.com/amazonbot"},
  {"token":"CCBot","operator":"Common Crawl","kind":"crawler","purposes":["train-ai"],"source":"https://commoncrawl.org/ccbot"},
  {"token":"DuckAssistBot","operator":"DuckDuckGo","kind":"crawler","purposes":["ai-use"],"source":"https://duckduckgo.com/duckduckgo-help-pages/results/duckassistbot"},
  {"token":"bingbot","operator":"Microsoft","kind":"crawler","purposes":["train-ai","ai-use","search"],"source":"https://blogs.bing.com/webmaster/september-2023/Announcing-new-options-for-webmasters-to-control-usage-of-their-content-in-Bing-Chat"},
  {"token":"Bytespider","operator":"ByteDance","kind":"crawler","purposes":["train-ai"],"source":"https://github.com/ai-robots-txt/ai.robots.txt"},
  {"token":"cohere-ai","operator":"Cohere","kind":"crawler","purposes":["ai-use"],"source":"https://github.com/ai-robots-txt/ai.robots.txt"},
  {"token":"cohere-training-data-crawler","operator":"Cohere","kind":"crawler","purposes":["train-ai"],"source":"https://github.com/ai-robots-txt/ai.robots.txt"},
  {"token":"MistralAI-User","operator":"Mistral","kind":"user-fetcher","purposes":["ai-use"],"source":"https://github.com/ai-robots-txt/ai.robots.txt"},
  {"token":"CloudflareBrowserRenderingCrawler","operator":"Cloudflare","kind":"crawler","purposes":[],"source":"https://developers.cloudflare.com/changelog/post/2026-08-31-crawl-content-use/"},
];
