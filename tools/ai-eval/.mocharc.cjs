module.exports = require('../../mocharc.base.cjs')({ timeout: 20000 });
