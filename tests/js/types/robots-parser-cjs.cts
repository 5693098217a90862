// Type-checked (tsc --noEmit, types.test.mjs): the same from CommonJS, where require() returns the
// function itself.
import robotsParser = require('robots-eval/robots-parser');
import overridden = require('robots-parser');

const robot: robotsParser.Robot = robotsParser('https://example.com/robots.txt', 'User-agent: *\nDisallow: /\n');
const allowed: boolean | undefined = robot.isAllowed('https://example.com/x', 'MyBot');
const line: number = robot.getMatchingLineNumber('https://example.com/x');
const other: overridden.Robot = overridden('https://example.com/robots.txt', 'User-agent: *\n');
// @ts-expect-error: contents is text, bytes, null or undefined
robotsParser('https://example.com/robots.txt', 42);
void allowed; void line; void other;
