// Types of robots-eval/robots-parser for ES modules: the default export and `Robot`, from the
// CommonJS types beside (robots-parser.d.cts, documented there).
import robotsParser from './robots-parser.cjs';

export type Robot = robotsParser.Robot;
export default robotsParser;
