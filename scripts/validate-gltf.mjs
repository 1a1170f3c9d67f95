// Runs the Khronos glTF validator over every .glb and .gltf in the folders given, resolving the
// textures they name beside them, and reads every .ktx2 with ktx-parse (format, a whole
// mip chain of the right sizes, Zstandard). Prints each file's counts and its errors and
// warnings; exits 1 if any file has one. Called by scripts/validate-baked-sets.
// The validator is found in the folder named by GLTF_VALIDATOR_DIR (its npm prefix).
import { createRequire } from 'node:module';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

const require = createRequire(resolve(process.env.GLTF_VALIDATOR_DIR ?? '.') + '/');
const { validateBytes } = require('gltf-validator');
const ktx = require('ktx-parse');

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
for (const dir of process.argv.slice(2)) {
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ktx2')).sort()) {
    const problems = [];
    try {
      const t = ktx.read(new Uint8Array(readFileSync(join(dir, file))));
      const side = t.pixelWidth;
      const chain = (side & (side - 1)) === 0 ? Math.log2(side) + 1 : 1;
      // RGBA8 (37, 43): four bytes a texel; BC7 (145, 146): 16 bytes a 4 × 4 block.
      const bc7 = [145, 146].includes(t.vkFormat);
      if (![37, 43, 145, 146].includes(t.vkFormat)) problems.push(`vkFormat ${t.vkFormat}`);
      if (t.supercompressionScheme !== 2) problems.push('not Zstandard');
      if (t.levels.length !== chain) problems.push(`${t.levels.length} levels, not ${chain}`);
      t.levels.forEach((l, k) => {
        const s = Math.max(side >> k, 1);
        const bytes = bc7 ? Math.ceil(s / 4) ** 2 * 16 : s * s * 4;
        if (l.uncompressedByteLength !== bytes) problems.push(`level ${k} size`);
      });
    } catch (e) {
      problems.push(String(e));
    }
    console.log(`${join(dir, file)}: ${problems.length ? problems.join('; ') : 'a whole chain'}`);
    if (problems.length) bad += 1;
  }
}
process.exit(bad > 0 ? 1 : 0);
