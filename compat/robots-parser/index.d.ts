export { default } from 'robots-eval/robots-parser';
export type { Robot } from 'robots-eval/robots-parser';
