// robots-parser's main export, CommonJS: require('robots-parser') returns the function itself.
module.exports = require('robots-eval/robots-parser');
