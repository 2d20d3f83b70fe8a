module.exports = require('./tempFolder').teardown;
