// robots-parser's main export for `import robotsParser from 'robots-parser'`.
export { default } from 'robots-eval/robots-parser';
