module.exports = require('./tempFolder').setup;
