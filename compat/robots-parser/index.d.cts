import robotsParser = require('robots-eval/robots-parser');
export = robotsParser;
