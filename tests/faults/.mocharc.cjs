module.exports = require('../../mocharc.base.cjs')({ timeout: 120000 });
