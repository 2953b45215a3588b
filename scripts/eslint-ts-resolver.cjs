/**
 * An `import/resolver` for eslint-plugin-boundaries: ESM TypeScript imports name the built file
 * (`./x.js`) while the source is `./x.ts`, which the node resolver alone cannot find, and an
 * unresolved import is an unknown element (reported by boundaries/no-unknown-dependencies).
 */
const node = require('eslint-import-resolver-node');

exports.interfaceVersion = 2;

exports.resolve = function resolve(source, file, config) {
  const found = node.resolve(source, file, config);
  if (found.found || !/^\.{1,2}\//.test(source) || !source.endsWith('.js')) return found;
  return node.resolve(`${source.slice(0, -3)}.ts`, file, config);
};
