// Runs the Khronos glTF validator over every .glb and .gltf in the folders given, resolving the
// textures they name beside them. Prints each file's counts and its errors and warnings;
// exits 1 if any file has an error or a warning. Called by scripts/validate-baked-sets.
// The validator is found in the folder named by GLTF_VALIDATOR_DIR (its npm prefix).
import { createRequire } from 'node:module';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

const require = createRequire(resolve(process.env.GLTF_VALIDATOR_DIR ?? '.') + '/');
const { validateBytes } = require('gltf-validator');

let bad = 0;
for (const dir of process.argv.slice(2)) {
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.glb') || f.endsWith('.gltf')).sort()) {
    const report = await validateBytes(new Uint8Array(readFileSync(join(dir, file))), {
      uri: file,
      externalResourceFunction: (uri) =>
        Promise.resolve(new Uint8Array(readFileSync(join(dir, decodeURIComponent(uri))))),
    });
    const { numErrors, numWarnings, messages } = report.issues;
    console.log(`${join(dir, file)}: ${numErrors} errors, ${numWarnings} warnings`);
    for (const m of messages.filter((m) => m.severity <= 1)) {
      console.log(`  ${m.severity === 0 ? 'error' : 'warning'} ${m.code} ${m.pointer ?? ''}: ${m.message}`);
    }
    if (numErrors + numWarnings > 0) bad += 1;
  }
}
process.exit(bad > 0 ? 1 : 0);
